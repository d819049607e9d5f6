dtrace: failed to compile script err.D_SYNTAX.bad_token.d: line 4: syntax error near ";"
