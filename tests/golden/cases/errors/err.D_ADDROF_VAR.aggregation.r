dtrace: failed to compile script err.D_ADDROF_VAR.aggregation.d: line 6: cannot take address of dynamic variable
