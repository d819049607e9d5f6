dtrace: failed to compile script tst.s_of_integer_is_rejected.d: line 5: printf( ) argument #2 is incompatible with conversion #1 prototype:
	conversion: %s
	 prototype: char [] or string (or use stringof)
	  argument: int
