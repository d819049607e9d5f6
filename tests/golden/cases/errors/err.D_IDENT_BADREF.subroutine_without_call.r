dtrace: failed to compile script err.D_IDENT_BADREF.subroutine_without_call.d: line 4: strlen( ) must be called as a function
