dtrace: failed to compile script err.D_TRUNC_SCALAR.aggregation_as_the_count.d: line 6: trunc( ) argument #2 must be of scalar type
