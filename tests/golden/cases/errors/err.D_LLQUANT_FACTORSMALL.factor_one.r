dtrace: failed to compile script err.D_LLQUANT_FACTORSMALL.factor_one.d: line 4: llquantize( ) factor (argument #1) must be two or more
