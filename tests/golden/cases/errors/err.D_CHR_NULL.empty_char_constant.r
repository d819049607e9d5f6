dtrace: failed to compile script err.D_CHR_NULL.empty_char_constant.d: line 4: empty character constant
