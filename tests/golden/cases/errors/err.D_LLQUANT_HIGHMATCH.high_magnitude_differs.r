dtrace: failed to compile script err.D_LLQUANT_HIGHMATCH.high_magnitude_differs.d: line 6: llquantize( ) high magnitude (argument #3) doesn't match previous declaration: expected 6, found 5
