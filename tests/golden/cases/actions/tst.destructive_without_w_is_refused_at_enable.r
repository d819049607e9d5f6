dtrace: script 'tst.destructive_without_w_is_refused_at_enable.d' matched 1 probe
dtrace: could not enable tracing: Destructive actions not allowed
