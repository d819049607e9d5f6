dtrace: failed to compile script err.D_TRUNC_AGGBAD.undefined_aggregation.d: line 4: undefined aggregation: @nosuch
