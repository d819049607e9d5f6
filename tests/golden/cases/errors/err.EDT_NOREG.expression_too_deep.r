dtrace: failed to compile script err.EDT_NOREG.expression_too_deep.d: Insufficient registers to generate code
