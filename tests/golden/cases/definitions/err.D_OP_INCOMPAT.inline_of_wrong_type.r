dtrace: failed to compile script err.D_OP_INCOMPAT.inline_of_wrong_type.d: line 2: inline n definition uses incompatible types: "int" = "string"
