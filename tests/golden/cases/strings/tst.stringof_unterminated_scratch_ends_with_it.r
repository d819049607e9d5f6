'abcde' 1

