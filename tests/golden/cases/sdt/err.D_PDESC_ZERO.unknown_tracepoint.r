dtrace: failed to compile script err.D_PDESC_ZERO.unknown_tracepoint.d: line 4: probe description sdt:sched::sched_no_such_event does not match any probes
