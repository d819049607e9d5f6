dtrace:::BEGIN dtrace

