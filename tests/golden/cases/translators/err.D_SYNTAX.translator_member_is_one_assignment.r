dtrace: failed to compile script err.D_SYNTAX.translator_member_is_one_assignment.d: line 18: syntax error near ","
