dtrace: script 'tst.cpu_is_the_cpu_column.d' matched 1 probe
CPU     ID                    FUNCTION:NAME
  0      1                           :BEGIN         0

