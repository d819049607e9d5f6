2 hi 16

