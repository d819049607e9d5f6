dtrace: failed to compile script err.D_ACT_SPEC.stop_after_speculate.d: line 6: destructive actions may not follow speculate( )
