dtrace: failed to compile script err.EDT_NOTUPREG.nine_keys.d: Insufficient tuple registers to generate code
