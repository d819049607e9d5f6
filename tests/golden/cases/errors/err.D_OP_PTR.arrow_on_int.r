dtrace: failed to compile script err.D_OP_PTR.arrow_on_int.d: line 5: operator -> must be applied to a pointer
