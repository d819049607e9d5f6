dtrace: failed to compile script err.D_LQUANT_BASEVAL.base_beyond_32_bits.d: line 4: lquantize( ) argument #1 must be a 32-bit quantity
