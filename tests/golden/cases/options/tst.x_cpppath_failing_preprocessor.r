dtrace: failed to compile script tst.x_cpppath_failing_preprocessor.d: Preprocessor failed to process input program
