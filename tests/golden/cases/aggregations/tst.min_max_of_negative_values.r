min -3
max -3

