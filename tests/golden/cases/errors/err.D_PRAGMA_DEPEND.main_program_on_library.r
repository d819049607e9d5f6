dtrace: failed to compile script err.D_PRAGMA_DEPEND.main_program_on_library.d: line 3: main program may not explicitly depend on a library
