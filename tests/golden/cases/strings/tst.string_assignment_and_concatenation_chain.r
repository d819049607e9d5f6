abab 4

