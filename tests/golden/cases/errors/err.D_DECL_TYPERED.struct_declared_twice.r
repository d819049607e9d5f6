dtrace: failed to compile script err.D_DECL_TYPERED.struct_declared_twice.d: line 5: type redeclared: struct point
