dtrace: failed to compile script err.D_AGG_SCALAR.aggregation_in_expression.d: line 5: aggregation @a may not be used as a scalar
