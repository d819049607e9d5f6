dtrace: failed to compile script err.D_PROTO_LEN.printa_without_arguments.d: line 4: printa( ) prototype mismatch: 0 args passed, at least 1 expected
