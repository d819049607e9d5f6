a1

