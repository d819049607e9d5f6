dtrace: script 'tst.end_probe_line_unquiet.d' matched 2 probes
CPU     ID                    FUNCTION:NAME
  0      1                           :BEGIN 
  0      2                             :END         1

