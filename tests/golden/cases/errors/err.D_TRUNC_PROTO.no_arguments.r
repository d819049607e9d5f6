dtrace: failed to compile script err.D_TRUNC_PROTO.no_arguments.d: line 4: trunc( ) prototype mismatch: 0 args passed, at least 1 expected
