dtrace: 1 dynamic variable drop
a[1] = 10, a[2] = 0

