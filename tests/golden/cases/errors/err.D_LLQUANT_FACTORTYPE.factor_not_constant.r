dtrace: failed to compile script err.D_LLQUANT_FACTORTYPE.factor_not_constant.d: line 5: llquantize( ) argument #1 (factor) must be an integer constant
