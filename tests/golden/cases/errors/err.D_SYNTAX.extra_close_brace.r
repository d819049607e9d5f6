dtrace: failed to compile script err.D_SYNTAX.extra_close_brace.d: line 6: syntax error near "}"
