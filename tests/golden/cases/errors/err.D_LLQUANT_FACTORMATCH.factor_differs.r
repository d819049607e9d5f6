dtrace: failed to compile script err.D_LLQUANT_FACTORMATCH.factor_differs.d: line 6: llquantize( ) factor (argument #1) doesn't match previous declaration: expected 10, found 20
