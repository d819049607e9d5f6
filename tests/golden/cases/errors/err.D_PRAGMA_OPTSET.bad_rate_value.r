dtrace: failed to compile script err.D_PRAGMA_OPTSET.bad_rate_value.d: line 2: failed to set option 'switchrate' to 'fast': Invalid value for specified option
