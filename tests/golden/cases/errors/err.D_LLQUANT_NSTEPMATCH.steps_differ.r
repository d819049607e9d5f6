dtrace: failed to compile script err.D_LLQUANT_NSTEPMATCH.steps_differ.d: line 6: llquantize( ) linear steps per magnitude (argument #4) doesn't match previous declaration: expected 20, found 10
