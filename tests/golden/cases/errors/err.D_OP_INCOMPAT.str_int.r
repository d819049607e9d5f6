dtrace: failed to compile script err.D_OP_INCOMPAT.str_int.d: line 5: operands have incompatible types: "int" = "string"
