dtrace: failed to compile script err.D_LLQUANT_FACTORVAL.factor_beyond_16_bits.d: line 4: llquantize( ) argument #1 (factor) must be an unsigned 16-bit quantity
