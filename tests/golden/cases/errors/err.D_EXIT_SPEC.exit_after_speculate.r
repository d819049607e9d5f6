dtrace: failed to compile script err.D_EXIT_SPEC.exit_after_speculate.d: line 5: exit( ) may not follow speculate( )
