first 5
second [abcdefgh] 8
second 1
third first!

