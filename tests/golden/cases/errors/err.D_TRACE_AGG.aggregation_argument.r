dtrace: failed to compile script err.D_TRACE_AGG.aggregation_argument.d: line 5: trace( ) may not be applied to an aggregation
