first 1
first 3

