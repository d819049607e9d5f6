dtrace: failed to compile script err.D_OFFSETOF_BITFIELD.offsetof_bit_field.d: line 7: cannot take offset of a bit-field: a
