dtrace: failed to compile script err.D_ARGS_IDX.negative_index.d: line 4: index -1 is out of range for :::BEGIN args[ ]
