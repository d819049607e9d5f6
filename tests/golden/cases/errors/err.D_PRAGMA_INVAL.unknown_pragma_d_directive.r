dtrace: failed to compile script err.D_PRAGMA_INVAL.unknown_pragma_d_directive.d: line 2: invalid D pragma: nosuchdirective
