dtrace: failed to compile script err.D_DECL_IDRED.inline_named_like_a_subroutine.d: line 2: identifier redefined: strlen
	 current: inline definition
	previous: function 
