dtrace: failed to compile script err.D_PROTO_ARG.strlen.d: line 4: strlen( ) argument #1 is incompatible with prototype:
	prototype: char *
	 argument: int
