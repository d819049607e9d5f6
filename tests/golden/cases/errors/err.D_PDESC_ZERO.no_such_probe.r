dtrace: failed to compile script err.D_PDESC_ZERO.no_such_probe.d: line 2: probe description dtrace:::NOSUCH does not match any probes
