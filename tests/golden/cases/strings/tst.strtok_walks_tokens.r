a
b
c

