dtrace: failed to compile script err.D_PRAGMA_DEPEND.module_not_loaded.d: line 3: program requires module no_such_module_loaded
