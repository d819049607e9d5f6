[abcdefgh]
[abcdefgh]
[12345678]
[abcdefg]
8

