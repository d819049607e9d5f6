dtrace: failed to compile script err.D_OP_INCOMPAT.ternary_string_and_int.d: line 4: operator ?: operands must have compatible types
