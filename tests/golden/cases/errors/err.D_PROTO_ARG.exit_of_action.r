dtrace: failed to compile script err.D_PROTO_ARG.exit_of_action.d: line 5: exit( ) argument #1 is incompatible with prototype:
	prototype: int
	 argument: void
