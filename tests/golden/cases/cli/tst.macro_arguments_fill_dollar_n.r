42 hello

