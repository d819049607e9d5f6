dtrace: failed to compile script err.D_PRAGMA_UNUSED.undeclared_name.d: line 3: unused #pragma attributes
