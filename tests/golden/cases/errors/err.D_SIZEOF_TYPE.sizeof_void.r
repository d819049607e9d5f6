dtrace: failed to compile script err.D_SIZEOF_TYPE.sizeof_void.d: line 4: cannot apply sizeof to an operand of unknown size
