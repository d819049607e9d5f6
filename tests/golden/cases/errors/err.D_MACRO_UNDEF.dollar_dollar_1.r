dtrace: failed to compile script err.D_MACRO_UNDEF.dollar_dollar_1.d: line 4: macro argument $$1 is not defined
