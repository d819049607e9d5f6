dtrace: failed to compile script err.D_SPEC_SPEC.speculate_twice.d: line 5: speculate( ) may not follow speculate( )
