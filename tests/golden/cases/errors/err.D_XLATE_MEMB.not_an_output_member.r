dtrace: failed to compile script err.D_XLATE_MEMB.not_an_output_member.d: line 8: translator member c is not a member of struct out
