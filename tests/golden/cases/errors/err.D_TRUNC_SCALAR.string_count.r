dtrace: failed to compile script err.D_TRUNC_SCALAR.string_count.d: line 5: trunc( ) argument #2 must be of scalar type
