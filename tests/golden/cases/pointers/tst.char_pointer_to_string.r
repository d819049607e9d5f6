abc 3

