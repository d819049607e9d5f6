dtrace: failed to compile script err.D_PROTO_ARG.mutex_subroutine_takes_struct_mutex.d: line 5: mutex_owned( ) argument #1 is incompatible with prototype:
	prototype: struct mutex *
	 argument: string
