dtrace: failed to compile script err.D_TRACEMEM_ARGS.four_arguments.d: line 4: tracemem ( ) prototype mismatch: expected at most 3 args
