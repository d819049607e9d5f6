dtrace: failed to compile script err.D_LQUANT_MISMATCH.limit_below_base.d: line 4: lquantize( ) base (argument #1) must be less than limit (argument #2)
