dtrace: failed to compile script err.D_IDENT_UNDEF.never_assigned.d: line 4: failed to resolve nosuchvar: Unknown variable name
