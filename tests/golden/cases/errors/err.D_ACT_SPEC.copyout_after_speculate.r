dtrace: failed to compile script err.D_ACT_SPEC.copyout_after_speculate.d: line 16: destructive actions may not follow speculate( )
