dtrace: failed to compile script err.D_DECL_LONGINT.long_struct.d: line 2: invalid type declaration: long and long long may only be used with integer or floating-point type
