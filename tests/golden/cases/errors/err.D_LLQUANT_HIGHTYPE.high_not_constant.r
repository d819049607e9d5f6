dtrace: failed to compile script err.D_LLQUANT_HIGHTYPE.high_not_constant.d: line 5: llquantize( ) argument #3 (high magnitude) must be an integer constant
