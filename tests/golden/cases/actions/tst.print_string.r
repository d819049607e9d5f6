string "hello"


