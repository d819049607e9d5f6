ffffffff80000000
100000000
negative
0

