dtrace: failed to compile script err.D_LLQUANT_MAGTOOBIG.factor_power_overflows.d: line 4: llquantize( ) factor (10) raised to power of high magnitude (19) plus 1 overflows 64-bits
