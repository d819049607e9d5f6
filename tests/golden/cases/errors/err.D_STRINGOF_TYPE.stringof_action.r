dtrace: failed to compile script err.D_STRINGOF_TYPE.stringof_action.d: line 5: cannot apply stringof to a value of type void
