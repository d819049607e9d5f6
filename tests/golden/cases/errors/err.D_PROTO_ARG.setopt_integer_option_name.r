dtrace: failed to compile script err.D_PROTO_ARG.setopt_integer_option_name.d: line 4: setopt( ) argument #1 is incompatible with prototype:
	prototype: char *
	 argument: int
