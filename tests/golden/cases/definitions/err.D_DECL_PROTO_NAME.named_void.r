dtrace: failed to compile script err.D_DECL_PROTO_NAME.named_void.d: line 2: void parameter may not have a name: nothing
