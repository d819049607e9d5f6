HELLO, WORLD 42! hello, world 42!

