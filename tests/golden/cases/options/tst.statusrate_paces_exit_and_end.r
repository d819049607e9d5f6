n is 3; END came more than a second after exit()

