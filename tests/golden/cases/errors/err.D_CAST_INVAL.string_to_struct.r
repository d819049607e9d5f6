dtrace: failed to compile script err.D_CAST_INVAL.string_to_struct.d: line 8: invalid cast expression: "int" to "struct point"
