dtrace: failed to compile script err.D_PRINTF_FMT_EMPTY.empty_format.d: line 4: printf( ) format string is empty
