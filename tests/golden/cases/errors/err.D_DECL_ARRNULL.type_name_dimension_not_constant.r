dtrace: failed to compile script err.D_DECL_ARRNULL.type_name_dimension_not_constant.d: line 7: expression must be an integer constant
