dtrace: failed to compile script err.D_IDENT_UNDEF.unknown_kernel_symbol.d: line 6: failed to resolve `dtrace_no_such_kernel_symbol: Unknown symbol name
