dtrace: failed to compile script err.D_STRINGOF_TYPE.stringof_struct.d: line 9: operator stringof requires an operand of scalar type
