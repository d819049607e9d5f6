max 2 3
max 1 9
min 1 -9
avg 1 1

