first 1

