dtrace: failed to compile script err.D_PROTO_LEN.trace_without_argument.d: line 4: trace( ) prototype mismatch: 0 args passed, 1 expected
