dtrace: failed to compile script err.D_DECL_IDRED.inline_defined_twice.d: line 3: identifier redefined: limit
	 current: inline definition
	previous: scalar inline
