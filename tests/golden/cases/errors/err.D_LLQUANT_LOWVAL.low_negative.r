dtrace: failed to compile script err.D_LLQUANT_LOWVAL.low_negative.d: line 4: llquantize( ) argument #2 (low magnitude) must be an unsigned 16-bit quantity
