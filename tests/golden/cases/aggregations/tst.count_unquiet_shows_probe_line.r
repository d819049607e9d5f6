dtrace: script 'tst.count_unquiet_shows_probe_line.d' matched 1 probe
CPU     ID                    FUNCTION:NAME
  0      1                           :BEGIN 

                1
