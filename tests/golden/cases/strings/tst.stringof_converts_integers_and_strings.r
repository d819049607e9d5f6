abc 1

