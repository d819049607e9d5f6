dtrace: failed to compile script err.D_OP_WRITE.assign_to_builtin.d: line 4: operator = can only be applied to a writable variable
