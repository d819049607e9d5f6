dtrace: failed to compile script err.D_STRINGOF_TYPE.stringof_struct.d: line 9: cannot apply stringof to a value of type struct point
