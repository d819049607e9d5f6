dtrace: failed to compile script err.D_PROTO_ARG.exit_with_string.d: line 4: exit( ) argument #1 is incompatible with prototype:
	prototype: int
	 argument: string
