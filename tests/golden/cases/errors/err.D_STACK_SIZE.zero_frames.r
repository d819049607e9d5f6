dtrace: failed to compile script err.D_STACK_SIZE.zero_frames.d: line 4: stack( ) size must be a non-zero positive integral constant expression
