dtrace: failed to compile script err.D_INT_OFLOW.constant_above_uint64.d: line 4: constant 18446744073709551616 results in integer overflow
