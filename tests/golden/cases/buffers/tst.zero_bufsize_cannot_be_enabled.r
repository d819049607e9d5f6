dtrace: script 'tst.zero_bufsize_cannot_be_enabled.d' matched 1 probe
dtrace: could not enable tracing: Enabling exceeds size of buffer
