a 0

