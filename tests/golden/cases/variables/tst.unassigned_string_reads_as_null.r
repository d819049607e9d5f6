self->name == NULL: 1, names[1] == NULL: 1, []
ERROR: fault 1 at address 0
dtrace: error on enabled probe ID 2 (ID 1: dtrace:::BEGIN): invalid address (0x0) in action #1

