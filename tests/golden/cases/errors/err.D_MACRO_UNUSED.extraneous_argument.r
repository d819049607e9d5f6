dtrace: failed to compile script err.D_MACRO_UNUSED.extraneous_argument.d: line 7: extraneous argument 'hello' ($2 is not referenced)
