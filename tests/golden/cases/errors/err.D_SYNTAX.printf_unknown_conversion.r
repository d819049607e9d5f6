dtrace: failed to compile script err.D_SYNTAX.printf_unknown_conversion.d: line 5: format conversion #1 is undefined: %q
