dtrace: failed to compile script err.D_OP_LVAL.increment_of_constant.d: line 4: operator ++ requires modifiable lvalue as an operand
