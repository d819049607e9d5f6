dtrace: failed to compile script err.D_OP_INCOMPAT.aggregation_in_expression.d: line 5: operands have incompatible types: "dynamic variable" + "int"
