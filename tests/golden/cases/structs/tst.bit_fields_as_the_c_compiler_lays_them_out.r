size 24 a 0 b 2 c 3edcba98 d 6789abcdef e 69 f -1

