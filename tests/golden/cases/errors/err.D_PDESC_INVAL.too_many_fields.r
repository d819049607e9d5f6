dtrace: failed to compile script err.D_PDESC_INVAL.too_many_fields.d: line 2: invalid probe description "a:b:c:d:e": Overspecified probe description
