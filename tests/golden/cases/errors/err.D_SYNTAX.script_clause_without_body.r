dtrace: failed to compile script err.D_SYNTAX.script_clause_without_body.d: line 3: expected predicate and/or actions following probe description
