fault 1 (badaddr 1) at 0x40
dtrace: error on enabled probe ID 2 (ID 1: dtrace:::BEGIN): invalid address (0x40) in action #1 at DIF offset 12

