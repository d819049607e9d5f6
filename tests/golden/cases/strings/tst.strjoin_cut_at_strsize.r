[abcdefg]
[abcdefg]
[1234567]
[abcdefg]
7

