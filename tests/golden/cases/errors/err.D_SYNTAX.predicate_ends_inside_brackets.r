dtrace: failed to compile script err.D_SYNTAX.predicate_ends_inside_brackets.d: line 6: closing ] expected in predicate before /
