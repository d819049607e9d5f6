2 3 -1 llo

