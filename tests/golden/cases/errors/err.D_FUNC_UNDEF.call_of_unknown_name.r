dtrace: failed to compile script err.D_FUNC_UNDEF.call_of_unknown_name.d: line 5: undefined function name: no_such_routine
