dtrace: failed to compile script err.D_ARGS_NONE.args_in_inline.d: line 2: args[ ] may not be referenced outside of a probe clause
