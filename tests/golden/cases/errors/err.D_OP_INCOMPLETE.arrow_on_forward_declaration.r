dtrace: failed to compile script err.D_OP_INCOMPLETE.arrow_on_forward_declaration.d: line 5: operator -> cannot be applied to a forward declaration: no struct nosuch definition is available
