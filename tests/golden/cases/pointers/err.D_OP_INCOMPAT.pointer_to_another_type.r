dtrace: failed to compile script err.D_OP_INCOMPAT.pointer_to_another_type.d: line 13: operands have incompatible types: "struct file *" = "struct task_struct *"
