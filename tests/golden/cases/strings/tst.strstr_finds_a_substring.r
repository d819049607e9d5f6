[barbaz] []

