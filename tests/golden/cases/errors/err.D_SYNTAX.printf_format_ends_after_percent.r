dtrace: failed to compile script err.D_SYNTAX.printf_format_ends_after_percent.d: line 5: format conversion #1 name expected before end of format string
