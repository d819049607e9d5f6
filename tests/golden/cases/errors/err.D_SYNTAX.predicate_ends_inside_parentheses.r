dtrace: failed to compile script err.D_SYNTAX.predicate_ends_inside_parentheses.d: line 5: closing ) expected in predicate before /
