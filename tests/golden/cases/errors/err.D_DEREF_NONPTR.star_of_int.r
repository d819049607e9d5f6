dtrace: failed to compile script err.D_DEREF_NONPTR.star_of_int.d: line 5: cannot dereference non-pointer type
