HELLO hello

