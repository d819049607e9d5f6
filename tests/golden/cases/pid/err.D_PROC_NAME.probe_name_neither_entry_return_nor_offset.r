dtrace: failed to compile script err.D_PROC_NAME.probe_name_neither_entry_return_nor_offset.d: line 6: 'beginning' is an invalid probe name
