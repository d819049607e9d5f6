dtrace: failed to compile script err.D_NORMALIZE_AGGARG.integer_argument.d: line 4: normalize( ) argument #1 is incompatible with prototype:
	prototype: aggregation
	 argument: int
