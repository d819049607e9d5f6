dtrace: failed to compile script err.D_LLQUANT_LOWTYPE.low_not_constant.d: line 5: llquantize( ) argument #2 (low magnitude) must be an integer constant
