48 255 15 -1
16 64 fffffff0

