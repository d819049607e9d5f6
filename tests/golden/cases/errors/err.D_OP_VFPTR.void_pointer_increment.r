dtrace: failed to compile script err.D_OP_VFPTR.void_pointer_increment.d: line 6: operator += requires left-hand scalar operand of known size
