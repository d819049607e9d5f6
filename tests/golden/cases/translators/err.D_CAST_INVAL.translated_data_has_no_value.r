dtrace: failed to compile script err.D_CAST_INVAL.translated_data_has_no_value.d: line 9: invalid cast expression: "pointer to translated data" to "uintptr_t"
