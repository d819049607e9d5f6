dtrace: script 'tst.commit_and_discard_clauses_print_nothing.d' matched 5 probes
CPU     ID                    FUNCTION:NAME
  0      1                           :BEGIN   committed                        
  0      1                           :BEGIN 

