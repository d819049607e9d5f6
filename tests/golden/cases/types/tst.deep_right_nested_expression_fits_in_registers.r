127
abcdefghi

