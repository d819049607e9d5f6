dtrace: failed to compile script err.D_ADDROF_LVAL.constant.d: line 5: unacceptable operand for unary & operator
