dtrace: failed to compile script err.D_AGG_REDEF.count_sum.d: line 9: aggregation redefined: @a
	 current: @a = sum( )
	previous: @a = count( ) : line 4
