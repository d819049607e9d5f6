dtrace: failed to compile script err.D_LQUANT_BASETYPE.base_not_constant.d: line 5: lquantize( ) argument #1 must be an integer constant
