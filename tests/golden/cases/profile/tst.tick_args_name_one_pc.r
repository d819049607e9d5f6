one PC

