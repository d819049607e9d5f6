dtrace: failed to compile script err.D_AGG_MDIM.key_count_differs.d: line 5: @a[ ] prototype mismatch: 2 args passed, 1 expected
