dtrace: failed to compile script err.D_SYNTAX.missing_semicolon.d: line 5: syntax error near "trace"
