dtrace: failed to compile script err.D_DECL_ARRNULL.dimension_not_constant.d: line 3: expression must be an integer constant
