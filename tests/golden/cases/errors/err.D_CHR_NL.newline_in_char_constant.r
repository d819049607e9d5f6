dtrace: failed to compile script err.D_CHR_NL.newline_in_char_constant.d: line 5: newline encountered in character constant
