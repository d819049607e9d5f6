dtrace: failed to compile script err.D_UNKNOWN.uregs_index_past_the_last_register.d: line 6: uregs[]: index out of bounds (26)
