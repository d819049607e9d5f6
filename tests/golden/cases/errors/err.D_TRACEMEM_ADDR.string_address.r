dtrace: failed to compile script err.D_TRACEMEM_ADDR.string_address.d: line 4: tracemem( ) argument #1 is incompatible with prototype:
	prototype: pointer or integer
	 argument: string
