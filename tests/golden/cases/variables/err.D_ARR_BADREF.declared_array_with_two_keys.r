dtrace: failed to compile script err.D_ARR_BADREF.declared_array_with_two_keys.d: line 6: cannot access scalar a as an associative array
