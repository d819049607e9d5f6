dtrace: failed to compile script err.D_FUNC_UNDEF.call_of_no_such_function.d: line 6: undefined function name: no_such_function
