dtrace: failed to compile script err.D_XLATE_REDECL.translator_twice.d: line 9: translator from struct in * to struct out has already been declared
