dtrace: failed to compile script err.D_LLQUANT_LOWMATCH.low_magnitude_differs.d: line 6: llquantize( ) low magnitude (argument #2) doesn't match previous declaration: expected 0, found 1
