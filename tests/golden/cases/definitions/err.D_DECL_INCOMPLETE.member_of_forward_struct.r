dtrace: failed to compile script err.D_DECL_INCOMPLETE.member_of_forward_struct.d: line 5: incomplete struct/union/enum struct later: l
