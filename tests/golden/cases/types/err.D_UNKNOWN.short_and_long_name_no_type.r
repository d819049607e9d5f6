dtrace: failed to compile script err.D_UNKNOWN.short_and_long_name_no_type.d: line 5: failed to resolve type short long int: Unknown type name
