dtrace: failed to compile script err.D_SYNTAX.missing_expression.d: line 4: syntax error near ";"
