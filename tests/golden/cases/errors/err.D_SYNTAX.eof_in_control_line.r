dtrace: failed to compile script err.D_SYNTAX.eof_in_control_line.d: line 4: end-of-file encountered before end of control line
