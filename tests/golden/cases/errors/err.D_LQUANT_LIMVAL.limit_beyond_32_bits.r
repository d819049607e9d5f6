dtrace: failed to compile script err.D_LQUANT_LIMVAL.limit_beyond_32_bits.d: line 4: lquantize( ) argument #2 must be a 32-bit quantity
