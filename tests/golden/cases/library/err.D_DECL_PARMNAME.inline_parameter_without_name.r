dtrace: failed to compile script err.D_DECL_PARMNAME.inline_parameter_without_name.d: line 4: inline parameter 1 of twice needs a name
