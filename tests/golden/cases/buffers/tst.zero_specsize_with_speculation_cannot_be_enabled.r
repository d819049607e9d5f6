dtrace: script 'tst.zero_specsize_with_speculation_cannot_be_enabled.d' matched 2 probes
dtrace: could not enable tracing: Enabling exceeds size of buffer
