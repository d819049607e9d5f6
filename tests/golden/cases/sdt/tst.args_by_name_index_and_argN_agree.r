mismatches: 0

