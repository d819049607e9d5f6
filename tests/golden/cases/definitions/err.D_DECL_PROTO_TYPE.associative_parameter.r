dtrace: failed to compile script err.D_DECL_PROTO_TYPE.associative_parameter.d: line 2: function prototype may not use parameter of type dynamic variable: k, parameter #1
