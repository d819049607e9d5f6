dtrace: failed to compile script err.D_DECL_TYPERED.second_struct_body.d: line 5: type redeclared: struct point
