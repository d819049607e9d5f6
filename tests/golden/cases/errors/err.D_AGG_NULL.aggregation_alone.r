dtrace: failed to compile script err.D_AGG_NULL.aggregation_alone.d: line 4: expression has null effect: @a
