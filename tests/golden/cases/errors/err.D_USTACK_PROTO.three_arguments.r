dtrace: failed to compile script err.D_USTACK_PROTO.three_arguments.d: line 4: ustack( ) prototype mismatch: too many arguments
