dtrace: failed to compile script err.D_CAST_INVAL.action_cast_to_struct.d: line 6: invalid cast expression: "void" to "struct s"
