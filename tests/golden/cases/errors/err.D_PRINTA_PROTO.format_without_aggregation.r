dtrace: failed to compile script err.D_PRINTA_PROTO.format_without_aggregation.d: line 5: printa( ) prototype mismatch: 1 args passed, 2 expected
