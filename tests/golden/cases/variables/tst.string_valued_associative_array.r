one two 1

