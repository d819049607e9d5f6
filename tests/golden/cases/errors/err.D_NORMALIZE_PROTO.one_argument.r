dtrace: failed to compile script err.D_NORMALIZE_PROTO.one_argument.d: line 5: normalize( ) prototype mismatch: 1 args passed, 2 expected
