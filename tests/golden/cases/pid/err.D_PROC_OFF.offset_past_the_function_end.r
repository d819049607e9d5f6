dtrace: failed to compile script err.D_PROC_OFF.offset_past_the_function_end.d: line 6: offset 0x100000 outside of function 'malloc'
