dtrace: failed to compile script err.D_PRINTF_ARG_TYPE.ustack_key_as_pointer.d: line 6: printa( ) argument #2 is incompatible with conversion #1 prototype:
	conversion: %p
	 prototype: pointer or integer
	  argument: stack
