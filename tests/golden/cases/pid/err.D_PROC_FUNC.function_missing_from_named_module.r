dtrace: failed to compile script err.D_PROC_FUNC.function_missing_from_named_module.d: line 6: failed to lookup 'no_such_function_here' in module 'libc.so.6'
