dtrace: failed to compile script err.D_COMM_COMM.commit_twice.d: line 5: commit( ) may not follow commit( )
