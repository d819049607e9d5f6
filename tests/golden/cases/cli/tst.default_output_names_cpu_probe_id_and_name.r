dtrace: script 'tst.default_output_names_cpu_probe_id_and_name.d' matched 1 probe
CPU     ID                    FUNCTION:NAME
  0      1                           :BEGIN 

