dtrace: failed to compile script err.D_SETOPT_PROTO.integer_option_name.d: line 4: setopt( ) argument #1 is incompatible with prototype:
	prototype: string constant
	 argument: int
