1
2
3
4
dtrace: 1 drop on CPU 0

