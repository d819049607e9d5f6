dtrace: failed to compile script err.D_AGG_SCALAR.sum_of_string.d: line 4: sum( ) argument #1 must be of scalar type
