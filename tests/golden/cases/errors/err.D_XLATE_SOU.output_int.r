dtrace: failed to compile script err.D_XLATE_SOU.output_int.d: line 5: translator output type must be a struct or union
