dtrace: failed to compile script err.D_LQUANT_STEPLARGE.step_beyond_range.d: line 4: lquantize( ) step (argument #3) too large: must have at least one quantization level
