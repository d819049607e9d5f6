dtrace: failed to compile script err.D_TRUNC_AGGARG.integer_argument.d: line 4: trunc( ) argument #1 is incompatible with prototype:
	prototype: aggregation
	 argument: int
