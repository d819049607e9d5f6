dtrace: failed to compile script err.D_DECL_IDRED.builtin_variable_declared_again.d: line 4: built-in identifier redeclared: timestamp
