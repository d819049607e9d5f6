hello 5 42

