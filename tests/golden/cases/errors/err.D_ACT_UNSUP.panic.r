dtrace: failed to compile script err.D_ACT_UNSUP.panic.d: line 5: panic( ) is not supported by the user engine
