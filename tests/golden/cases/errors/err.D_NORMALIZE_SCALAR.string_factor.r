dtrace: failed to compile script err.D_NORMALIZE_SCALAR.string_factor.d: line 5: normalize( ) argument #2 must be of scalar type
