dtrace: failed to compile script err.D_DECL_PROTO_VOID.void_among_others.d: line 2: void must be sole parameter
