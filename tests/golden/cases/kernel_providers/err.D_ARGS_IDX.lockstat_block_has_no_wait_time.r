dtrace: failed to compile script err.D_ARGS_IDX.lockstat_block_has_no_wait_time.d: line 9: index 1 is out of range for lockstat:::adaptive-block args[ ]
