dtrace: script 'tst.default_output_traces_strings_padded.d' matched 2 probes
CPU     ID                    FUNCTION:NAME
  0      1                           :BEGIN   abc                              
  0      1                           :BEGIN 

