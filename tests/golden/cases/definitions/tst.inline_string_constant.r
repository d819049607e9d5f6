hello 5

