dtrace: failed to compile script err.D_SYNTAX.after_good_declarations.d: line 12: syntax error near "2"
