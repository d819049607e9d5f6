dtrace: failed to compile script err.D_DECL_COMBO.long_char.d: line 2: invalid type combination
