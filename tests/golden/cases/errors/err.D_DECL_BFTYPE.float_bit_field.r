dtrace: failed to compile script err.D_DECL_BFTYPE.float_bit_field.d: line 3: invalid type for bit-field: f
