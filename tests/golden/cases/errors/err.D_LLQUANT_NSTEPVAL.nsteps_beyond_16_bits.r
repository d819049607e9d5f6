dtrace: failed to compile script err.D_LLQUANT_NSTEPVAL.nsteps_beyond_16_bits.d: line 4: llquantize( ) argument #4 (linear steps per magnitude) must be an unsigned 16-bit quantity
