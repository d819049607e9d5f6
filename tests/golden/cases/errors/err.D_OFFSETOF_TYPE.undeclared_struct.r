dtrace: failed to compile script err.D_OFFSETOF_TYPE.undeclared_struct.d: line 5: offsetof operand must be a struct or union type
