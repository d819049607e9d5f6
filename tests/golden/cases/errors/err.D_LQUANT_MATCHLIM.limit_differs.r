dtrace: failed to compile script err.D_LQUANT_MATCHLIM.limit_differs.d: line 6: lquantize( ) limit (argument #2) doesn't match previous declaration: expected 100, found 200
