dtrace: failed to compile script err.D_DECL_ARRSUB.dimension_not_constant.d: line 3: positive integral constant expression or tuple signature expected as array declaration subscript
