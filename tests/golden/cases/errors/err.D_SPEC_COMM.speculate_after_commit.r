dtrace: failed to compile script err.D_SPEC_COMM.speculate_after_commit.d: line 5: speculate( ) may not follow commit( )
