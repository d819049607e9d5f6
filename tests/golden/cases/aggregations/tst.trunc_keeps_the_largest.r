c 2
b 3

