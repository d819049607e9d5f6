dtrace: failed to compile script err.D_PRINTF_DYN_TYPE.star_width_of_string.d: line 4: printf( ) argument #2 is incompatible with conversion #1 prototype:
	conversion: % * d
	 prototype: int
	  argument: string
