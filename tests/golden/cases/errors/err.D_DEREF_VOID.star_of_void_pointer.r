dtrace: failed to compile script err.D_DEREF_VOID.star_of_void_pointer.d: line 4: cannot dereference pointer to void
