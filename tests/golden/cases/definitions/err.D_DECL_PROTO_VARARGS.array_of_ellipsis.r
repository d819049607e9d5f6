dtrace: failed to compile script err.D_DECL_PROTO_VARARGS.array_of_ellipsis.d: line 2: array prototype may not use a variable-length argument list
