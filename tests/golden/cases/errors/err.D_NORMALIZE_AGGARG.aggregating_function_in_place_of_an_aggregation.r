dtrace: failed to compile script err.D_NORMALIZE_AGGARG.aggregating_function_in_place_of_an_aggregation.d: line 5: denormalize( ) argument #1 is incompatible with prototype:
	prototype: aggregation
	 argument: void
