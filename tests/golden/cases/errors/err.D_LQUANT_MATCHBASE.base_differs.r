dtrace: failed to compile script err.D_LQUANT_MATCHBASE.base_differs.d: line 6: lquantize( ) base (argument #1) doesn't match previous declaration: expected 0, found 10
