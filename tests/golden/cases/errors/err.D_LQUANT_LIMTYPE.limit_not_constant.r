dtrace: failed to compile script err.D_LQUANT_LIMTYPE.limit_not_constant.d: line 5: lquantize( ) argument #2 must be an integer constant
