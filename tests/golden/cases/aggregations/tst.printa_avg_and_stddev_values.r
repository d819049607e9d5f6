avg 2
stddev 2

