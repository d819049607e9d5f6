dtrace: failed to compile script err.D_CHR_OFLOW.nine_byte_char_constant.d: line 4: character constant is too long
