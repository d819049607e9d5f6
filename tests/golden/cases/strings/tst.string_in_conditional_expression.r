many 1

