fault 3 value 999
dtrace: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): illegal operation in action #1 at DIF offset 32
fault 1 value 0
dtrace: error on enabled probe ID 2 (ID 1: dtrace:::BEGIN): invalid address (0x0) in action #1 at DIF offset 20

