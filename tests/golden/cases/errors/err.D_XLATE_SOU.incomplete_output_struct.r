dtrace: failed to compile script err.D_XLATE_SOU.incomplete_output_struct.d: line 8: incomplete struct/union/enum struct never_defined
