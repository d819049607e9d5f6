dtrace: failed to compile script err.D_PROTO_ARG.uregs_index_is_a_variable.d: line 7: uregs[ ] argument #1 is incompatible with prototype:
	prototype: integer constant
	 argument: int
