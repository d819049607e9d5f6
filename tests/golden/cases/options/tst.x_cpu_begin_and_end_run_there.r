BEGIN on 0
tick on 0
END on 0

