ff FF 10 0xff 0XFF 010

