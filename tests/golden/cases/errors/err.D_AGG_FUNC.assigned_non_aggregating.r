dtrace: failed to compile script err.D_AGG_FUNC.assigned_non_aggregating.d: line 4: @a must be assigned the result of an aggregating function
