dtrace: failed to compile script err.D_COMM_DREC.commit_after_trace.d: line 5: commit( ) may not follow data-recording action(s)
