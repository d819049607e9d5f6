dtrace: failed to compile script err.D_SIZEOF_BITFIELD.member.d: line 9: cannot apply sizeof to a bit-field
