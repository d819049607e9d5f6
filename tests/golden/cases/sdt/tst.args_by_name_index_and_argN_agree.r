fired: 1, mismatches: 0

