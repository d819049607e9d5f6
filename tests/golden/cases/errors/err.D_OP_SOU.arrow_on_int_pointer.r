dtrace: failed to compile script err.D_OP_SOU.arrow_on_int_pointer.d: line 5: operator -> cannot be applied to pointer to type "int"; must be applied to a struct or union pointer
