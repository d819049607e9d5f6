dtrace: failed to compile script err.D_INT_DIGIT.octal_constant_with_8.d: line 4: constant 08 contains invalid digit 8
