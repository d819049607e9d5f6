dtrace: failed to compile script err.D_TYPE_MEMBER.args_names_no_such_field.d: line 7: prev_pidd is not an argument of sdt:sched::sched_switch (args->NAME names one of its arguments)
