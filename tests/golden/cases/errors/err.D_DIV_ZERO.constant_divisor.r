dtrace: failed to compile script err.D_DIV_ZERO.constant_divisor.d: line 5: expression contains division by zero
