dtrace: failed to compile script err.D_OP_INCOMPAT.inline_value_of_another_type.d: line 4: inline nitems definition uses incompatible types: "int" = "string"
