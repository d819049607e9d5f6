dtrace: script 'tst.x_cpu_beyond_any_cpu_is_refused.d' matched 1 probe
dtrace: could not enable tracing: Invalid argument
