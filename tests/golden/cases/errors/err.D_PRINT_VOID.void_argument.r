dtrace: failed to compile script err.D_PRINT_VOID.void_argument.d: line 4: print( ) may not be applied to a void expression
