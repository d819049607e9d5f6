dtrace: failed to compile script err.D_OP_INCOMPAT.pointer_then_integer.d: line 7: operands have incompatible types: "struct task_struct *" = "pid_t"
