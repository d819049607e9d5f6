dtrace: failed to compile script err.D_STR_NL.newline_in_string.d: line 5: newline encountered in string literal
