dtrace: failed to compile script err.D_ADDROF_BITFIELD.address_of_bit_field.d: line 8: cannot take address of bit-field
