dtrace: failed to compile script err.D_IDENT_BADREF.array_used_as_scalar.d: line 5: associative array 'a' may not be referenced as scalar
