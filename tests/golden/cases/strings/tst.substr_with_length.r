[abc] [cdef] [ef] []

