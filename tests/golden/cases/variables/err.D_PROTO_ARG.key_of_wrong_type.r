dtrace: failed to compile script err.D_PROTO_ARG.key_of_wrong_type.d: line 6: a[ ] key #2 is incompatible with prototype:
	prototype: string
	      key: int
