dtrace: failed to compile script err.D_DIV_ZERO.constant_modulus.d: line 4: expression contains division by zero
