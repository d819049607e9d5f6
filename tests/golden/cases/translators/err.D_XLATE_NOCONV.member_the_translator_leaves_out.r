dtrace: failed to compile script err.D_XLATE_NOCONV.member_the_translator_leaves_out.d: line 22: translator does not define conversion for member: b
