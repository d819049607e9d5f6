dtrace: failed to compile script err.D_DECL_MNAME.duplicate_member.d: line 4: duplicate member name: x
