owner word           mutex_owner        owned adaptive spin
free                 0                      0        1    0
other thread         ffff888012345600       0        1    0
other, a waiter      ffff888012345600       0
other, every flag    ffff888012345600       0
this thread: owner is curthread 1, owned 1
fault 1 at 0x8
dtrace: error on enabled probe ID 2 (ID 1: dtrace:::BEGIN): invalid address (0x8) in action #1 at DIF offset 12

