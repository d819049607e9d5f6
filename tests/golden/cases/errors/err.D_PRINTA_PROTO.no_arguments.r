dtrace: failed to compile script err.D_PRINTA_PROTO.no_arguments.d: line 4: printa( ) prototype mismatch: 0 args passed, 1 expected
