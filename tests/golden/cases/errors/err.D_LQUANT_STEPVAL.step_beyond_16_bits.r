dtrace: failed to compile script err.D_LQUANT_STEPVAL.step_beyond_16_bits.d: line 4: lquantize( ) argument #3 must be a 16-bit quantity
