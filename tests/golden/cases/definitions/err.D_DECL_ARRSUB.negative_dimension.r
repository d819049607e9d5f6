dtrace: failed to compile script err.D_DECL_ARRSUB.negative_dimension.d: line 2: positive integral constant expression or tuple signature expected as array declaration subscript
