dtrace: failed to compile script err.D_PROTO_LEN.subroutine_too_many_optional.d: line 5: index( ) prototype mismatch: 4 args passed, at most 3 expected
