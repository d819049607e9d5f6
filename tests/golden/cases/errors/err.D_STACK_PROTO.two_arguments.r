dtrace: failed to compile script err.D_STACK_PROTO.two_arguments.d: line 4: stack( ) prototype mismatch: too many arguments
