dtrace: failed to compile script err.D_ARGS_IDX.on_cpu_has_no_arguments.d: line 6: index 0 is out of range for sched:::on-cpu args[ ]
