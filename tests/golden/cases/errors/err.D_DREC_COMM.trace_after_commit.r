dtrace: failed to compile script err.D_DREC_COMM.trace_after_commit.d: line 5: data-recording actions may not follow commit( )
