dtrace: failed to compile script err.D_USTACK_FRAMES.zero_frames.d: line 4: ustack( ) argument #1 must be a non-zero positive integer constant
