dtrace: failed to compile script err.D_PRED_SCALAR.struct_predicate.d: line 9: predicate result must be of scalar type
