dtrace: failed to compile script err.D_SYNTAX.extra_closing_parenthesis.d: line 4: extra ) in input stream
