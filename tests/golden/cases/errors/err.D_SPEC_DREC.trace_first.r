dtrace: failed to compile script err.D_SPEC_DREC.trace_first.d: line 5: speculate( ) may not follow data-recording action(s)
