dtrace: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): illegal operation in action #1 at DIF offset 32
dtrace: error on enabled probe ID 2 (ID 1: dtrace:::BEGIN): invalid address (0x0) in action #1 at DIF offset 20
fault 1 value 0: 1
fault 3 value 999: 1

