dtrace: failed to compile script err.D_XLATE_SOU.translator_output_is_a_function_type.d: line 18: translator output type must be a struct or union
