dtrace: failed to compile script err.D_OP_VFPTR.subtract_pointer_from_int.d: line 7: operator -= requires left-hand scalar operand of known size
