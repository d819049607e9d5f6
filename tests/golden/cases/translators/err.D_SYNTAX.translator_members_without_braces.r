dtrace: failed to compile script err.D_SYNTAX.translator_members_without_braces.d: line 12: syntax error near "myi"
