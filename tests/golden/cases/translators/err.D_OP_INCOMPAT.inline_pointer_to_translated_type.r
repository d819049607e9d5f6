dtrace: failed to compile script err.D_OP_INCOMPAT.inline_pointer_to_translated_type.d: line 7: inline wrong definition uses incompatible types: "struct file *" = "psinfo_t *"
