dtrace: failed to compile script err.D_PROTO_LEN.action_in_conditional.d: line 6: exit( ) prototype mismatch: 0 args passed, 1 expected
