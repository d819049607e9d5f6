dtrace: failed to compile script err.D_DECL_BFSIZE.wider_than_its_type.d: line 3: bit-field too big for type: c
