libc.so.1 /usr/lib
/ .

