dtrace: failed to compile script err.D_AGG_COMM.count_after_commit.d: line 5: aggregating actions may not follow commit( )
