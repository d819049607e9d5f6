dtrace: failed to compile script err.D_PRINTA_AGGBAD.undefined_aggregation.d: line 4: undefined aggregation: @nosuch
