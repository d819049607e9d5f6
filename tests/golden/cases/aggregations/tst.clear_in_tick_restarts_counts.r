k 3
k 0

