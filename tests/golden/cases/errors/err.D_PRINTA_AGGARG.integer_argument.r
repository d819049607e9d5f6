dtrace: failed to compile script err.D_PRINTA_AGGARG.integer_argument.d: line 4: printa( ) argument #1 is incompatible with prototype:
	prototype: aggregation
	 argument: int
