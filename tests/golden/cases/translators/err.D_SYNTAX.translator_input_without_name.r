dtrace: failed to compile script err.D_SYNTAX.translator_input_without_name.d: line 11: syntax error near ">"
