dtrace: failed to compile script err.D_AGG_SPEC.count_after_speculate.d: line 5: aggregating actions may not follow speculate( )
