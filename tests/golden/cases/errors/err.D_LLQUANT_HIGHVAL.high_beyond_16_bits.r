dtrace: failed to compile script err.D_LLQUANT_HIGHVAL.high_beyond_16_bits.d: line 4: llquantize( ) argument #3 (high magnitude) must be an unsigned 16-bit quantity
