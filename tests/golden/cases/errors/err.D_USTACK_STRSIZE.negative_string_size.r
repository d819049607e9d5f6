dtrace: failed to compile script err.D_USTACK_STRSIZE.negative_string_size.d: line 4: ustack( ) argument #2 must be a positive integer constant
