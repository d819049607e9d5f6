dtrace: script 'tst.trace_unquiet_appends_values_to_probe_line.d' matched 1 probe
CPU     ID                    FUNCTION:NAME
  0      1                           :BEGIN        42  str                              

