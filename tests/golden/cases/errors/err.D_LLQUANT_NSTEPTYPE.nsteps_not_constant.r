dtrace: failed to compile script err.D_LLQUANT_NSTEPTYPE.nsteps_not_constant.d: line 5: llquantize( ) argument #4 (linear steps per magnitude) must be an integer constant
