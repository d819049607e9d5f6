dtrace: failed to compile script err.D_PDESC_ZERO.nomatch.d: line 6: probe description nosuchprovider:::nosuchprobe does not match any probes
