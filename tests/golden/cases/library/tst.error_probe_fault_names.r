bad address 16 (DTRACEFLT_BADADDR is 1, DIVZERO 4, LIBRARY 1000)
dtrace: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): invalid address (0x10) in action #1 at DIF offset 4

