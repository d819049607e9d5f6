dtrace: failed to compile script err.D_LQUANT_STEPSMALL.too_many_levels.d: line 4: lquantize( ) step (argument #3) too small: number of quantization levels must be a 16-bit quantity
