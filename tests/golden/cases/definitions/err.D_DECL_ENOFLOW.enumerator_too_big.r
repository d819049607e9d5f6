dtrace: failed to compile script err.D_DECL_ENOFLOW.enumerator_too_big.d: line 4: enumerator 'HUGE' value overflows INT_MAX (2147483647)
