dtrace: failed to compile script err.D_MACRO_UNDEF.dollar3.d: line 4: macro argument $3 is not defined
