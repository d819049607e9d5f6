dtrace: script 'tst.trace_negative_integer_unquiet.d' matched 1 probe
CPU     ID                    FUNCTION:NAME
  0      1                           :BEGIN               -12

