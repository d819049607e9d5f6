dtrace: failed to compile script err.D_PROTO_ARG.action_as_subroutine_argument.d: line 5: strlen( ) argument #1 is incompatible with prototype:
	prototype: char *
	 argument: void
