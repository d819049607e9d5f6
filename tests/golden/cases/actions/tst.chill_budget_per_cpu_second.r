dtrace: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): illegal operation in action #1
300 ms fit in the budget
dtrace: error on enabled probe ID 3 (ID 1: dtrace:::BEGIN): illegal operation in action #1

