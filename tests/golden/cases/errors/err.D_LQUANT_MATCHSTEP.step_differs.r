dtrace: failed to compile script err.D_LQUANT_MATCHSTEP.step_differs.d: line 6: lquantize( ) step (argument #3) doesn't match previous declaration: expected 10, found 20
