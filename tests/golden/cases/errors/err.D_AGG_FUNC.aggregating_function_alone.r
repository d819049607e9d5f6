dtrace: failed to compile script err.D_AGG_FUNC.aggregating_function_alone.d: line 4: count( ) may only be used as the value of an aggregation
