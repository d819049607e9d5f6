dtrace: failed to compile script err.D_AGG_MDIM.aggregation_indexed_twice.d: line 5: improper attempt to reference @calls as a multi-dimensional array
