dtrace: failed to compile script err.D_DECL_IDRED.inline_redefines_a_subroutine.d: line 4: identifier redefined: strlen
	 current: inline definition
	previous: function 
