dtrace: failed to compile script err.D_CLEAR_PROTO.no_arguments.d: line 4: clear( ) prototype mismatch: 0 args passed, 1 expected
