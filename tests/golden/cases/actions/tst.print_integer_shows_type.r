int 0x2a

char 'A'


