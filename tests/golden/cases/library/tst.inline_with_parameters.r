21 10 5
zero one many

