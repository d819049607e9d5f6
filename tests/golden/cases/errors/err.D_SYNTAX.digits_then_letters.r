dtrace: failed to compile script err.D_SYNTAX.digits_then_letters.d: line 3: syntax error near "1"
