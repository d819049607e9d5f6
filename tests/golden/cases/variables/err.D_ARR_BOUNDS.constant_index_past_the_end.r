dtrace: failed to compile script err.D_ARR_BOUNDS.constant_index_past_the_end.d: line 6: index outside array bounds: 4, max is 4
