dtrace: failed to compile script err.D_SYNTAX.printa_positional_conversion.d: line 6: format conversion #1 uses unsupported positional format (%n$)
