dtrace: failed to compile script err.D_PROTO_ARG.quantize_increment_string.d: line 4: quantize( ) increment value (argument #2) must be of scalar type
