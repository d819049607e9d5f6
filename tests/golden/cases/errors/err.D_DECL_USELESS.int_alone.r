dtrace: failed to compile script err.D_DECL_USELESS.int_alone.d: line 2: useless declaration
