dtrace: failed to compile script err.D_PRINT_AGG.aggregation_argument.d: line 5: print( ) may not be applied to an aggregation -- did you mean printa()?
