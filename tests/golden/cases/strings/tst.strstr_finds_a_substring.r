[barbaz] 1

