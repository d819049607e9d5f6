dtrace: failed to compile script err.D_OP_INCOMPAT.declared_int_given_string.d: line 7: operands have incompatible types: "int" = "string"
