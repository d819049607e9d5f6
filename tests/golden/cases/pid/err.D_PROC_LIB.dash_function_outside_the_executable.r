dtrace: failed to compile script err.D_PROC_LIB.dash_function_outside_the_executable.d: line 6: only the a.out module is valid with the '-' function
