dtrace: failed to compile script err.D_SYNTAX.translator_input_without_closing_angle.d: line 12: syntax error near "{"
