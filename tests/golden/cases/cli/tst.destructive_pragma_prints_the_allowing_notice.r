dtrace: script 'tst.destructive_pragma_prints_the_allowing_notice.d' matched 1 probe
dtrace: allowing destructive actions
CPU     ID                    FUNCTION:NAME
  0      1                           :BEGIN   traced                           

