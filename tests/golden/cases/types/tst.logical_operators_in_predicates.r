one
two

