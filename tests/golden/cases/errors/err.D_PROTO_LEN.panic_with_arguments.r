dtrace: failed to compile script err.D_PROTO_LEN.panic_with_arguments.d: line 6: panic( ) prototype mismatch: 1 arg passed, 0 expected
