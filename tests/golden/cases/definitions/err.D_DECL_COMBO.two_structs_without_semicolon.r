dtrace: failed to compile script err.D_DECL_COMBO.two_structs_without_semicolon.d: line 5: invalid type combination
