dtrace: failed to compile script err.D_ADDROF_VAR.address_of_global.d: line 5: cannot take address of dynamic variable
