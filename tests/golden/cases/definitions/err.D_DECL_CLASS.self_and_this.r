dtrace: failed to compile script err.D_DECL_CLASS.self_and_this.d: line 2: only one storage class allowed in a declaration
