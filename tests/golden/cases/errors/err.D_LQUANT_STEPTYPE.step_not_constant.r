dtrace: failed to compile script err.D_LQUANT_STEPTYPE.step_not_constant.d: line 5: lquantize( ) argument #3 must be a non-zero positive integer constant
