dtrace: failed to compile script err.D_PROTO_LEN.strlen.d: line 4: strlen( ) prototype mismatch: 2 args passed, 1 expected
