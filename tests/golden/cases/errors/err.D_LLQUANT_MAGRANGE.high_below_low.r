dtrace: failed to compile script err.D_LLQUANT_MAGRANGE.high_below_low.d: line 4: llquantize( ) high magnitude (argument #3) must be greater than low magnitude (argument #2)
