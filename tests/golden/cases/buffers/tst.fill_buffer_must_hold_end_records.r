dtrace: script 'tst.fill_buffer_must_hold_end_records.d' matched 2 probes
dtrace: could not enable tracing: END enablings exceed size of principal buffer
