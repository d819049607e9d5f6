dtrace: failed to compile script err.D_DECL_COMBO.char_int_cast.d: line 4: invalid type combination
