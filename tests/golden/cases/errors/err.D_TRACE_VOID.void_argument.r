dtrace: failed to compile script err.D_TRACE_VOID.void_argument.d: line 4: trace( ) may not be applied to a void expression
