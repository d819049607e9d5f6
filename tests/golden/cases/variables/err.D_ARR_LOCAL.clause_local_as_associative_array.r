dtrace: failed to compile script err.D_ARR_LOCAL.clause_local_as_associative_array.d: line 4: local variables may not be used as associative arrays: a
