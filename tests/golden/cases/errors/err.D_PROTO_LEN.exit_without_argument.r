dtrace: failed to compile script err.D_PROTO_LEN.exit_without_argument.d: line 4: exit( ) prototype mismatch: 0 args passed, 1 expected
