dtrace: failed to compile script err.D_IDENT_UNDEF.undeclared.d: line 5: failed to resolve nosuchvar: Unknown variable name
