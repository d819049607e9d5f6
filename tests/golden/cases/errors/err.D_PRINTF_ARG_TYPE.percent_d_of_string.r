dtrace: failed to compile script err.D_PRINTF_ARG_TYPE.percent_d_of_string.d: line 4: printf( ) argument #2 is incompatible with conversion #1 prototype:
	conversion: %d
	 prototype: char, short, int, long, or long long
	  argument: string
