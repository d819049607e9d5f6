worker 6

