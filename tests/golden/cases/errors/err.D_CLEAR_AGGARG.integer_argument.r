dtrace: failed to compile script err.D_CLEAR_AGGARG.integer_argument.d: line 4: clear( ) argument #1 is incompatible with prototype:
	prototype: aggregation
	 argument: int
