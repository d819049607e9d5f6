dtrace: failed to compile script err.D_PRINTF_ARG_TYPE.printf_of_action.d: line 5: printf( ) argument #2 is incompatible with conversion #1 prototype:
	conversion: %d
	 prototype: char, short, int, long, or long long
	  argument: void
