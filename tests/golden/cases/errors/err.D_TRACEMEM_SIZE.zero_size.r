dtrace: failed to compile script err.D_TRACEMEM_SIZE.zero_size.d: line 4: tracemem( ) argument #2 must be a non-zero positive integral constant expression
