foobar 6

