dtrace: failed to compile script err.D_PROC_BADPID.provider_pid_zero.d: line 5: 'pid0' does not contain a valid pid
