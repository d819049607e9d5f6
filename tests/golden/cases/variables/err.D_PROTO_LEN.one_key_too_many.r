dtrace: failed to compile script err.D_PROTO_LEN.one_key_too_many.d: line 5: a[ ] prototype mismatch: 3 keys passed, 2 expected
