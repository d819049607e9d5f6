dtrace: failed to compile script err.D_DECL_VOIDOBJ.void_global.d: line 2: cannot have void object: x
