firing 0, first clause: red
firing 0, second clause: green
firing 1, first clause: one
firing 1, second clause: two
dtrace: error on enabled probe ID 4 (ID 2: dtrace:::END): invalid address (0x0) in action #1 at DIF offset 20

