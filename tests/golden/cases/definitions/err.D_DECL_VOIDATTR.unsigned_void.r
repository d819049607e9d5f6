dtrace: failed to compile script err.D_DECL_VOIDATTR.unsigned_void.d: line 2: invalid type declaration: attributes may not be used with void type
