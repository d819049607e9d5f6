dtrace: failed to compile script err.D_MACRO_UNDEF.dollar_two_without_operand.d: line 7: macro argument $2 is not defined
