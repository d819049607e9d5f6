dtrace: failed to compile script err.D_ACT_SPEC.breakpoint_after_speculate.d: line 11: destructive actions may not follow speculate( )
