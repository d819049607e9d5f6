one PC each

