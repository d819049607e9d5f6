dtrace: failed to compile script err.D_PRINTF_AGG_CONV.percent_at_in_printf.d: line 4: %@ conversion requires an aggregation and is not for use with printf( )
