dtrace: failed to compile script err.D_DECL_IDRED.global_declared_twice.d: line 3: identifier redeclared: x
