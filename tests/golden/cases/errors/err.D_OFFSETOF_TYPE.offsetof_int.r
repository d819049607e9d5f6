dtrace: failed to compile script err.D_OFFSETOF_TYPE.offsetof_int.d: line 4: offsetof operand must be a struct or union type
