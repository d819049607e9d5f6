dtrace: script 'tst.default_output_traces_integers_in_fixed_widths.d' matched 2 probes
CPU     ID                    FUNCTION:NAME
  0      1                           :BEGIN        42               -7
  0      1                           :BEGIN 

