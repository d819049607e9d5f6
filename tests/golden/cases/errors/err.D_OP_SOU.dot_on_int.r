dtrace: failed to compile script err.D_OP_SOU.dot_on_int.d: line 5: operator . cannot be applied to type "int"; must be applied to a struct or union
