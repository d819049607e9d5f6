dtrace: failed to compile script err.D_SYNTAX.translator_input_without_angle_brackets.d: line 18: syntax error near "{"
