dtrace: failed to compile script err.D_DECL_ENCONST.enumerator_from_variable.d: line 6: enumerator 'A' must be assigned to an integral constant expression
