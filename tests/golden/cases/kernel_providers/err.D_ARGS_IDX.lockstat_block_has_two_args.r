dtrace: failed to compile script err.D_ARGS_IDX.lockstat_block_has_two_args.d: line 9: index 2 is out of range for lockstat:::adaptive-block args[ ]
