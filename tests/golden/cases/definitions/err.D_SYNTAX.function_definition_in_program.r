dtrace: failed to compile script err.D_SYNTAX.function_definition_in_program.d: line 4: syntax error near "{"
