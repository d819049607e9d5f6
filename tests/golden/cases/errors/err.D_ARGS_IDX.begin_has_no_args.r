dtrace: failed to compile script err.D_ARGS_IDX.begin_has_no_args.d: line 5: index 0 is out of range for :::BEGIN args[ ]
