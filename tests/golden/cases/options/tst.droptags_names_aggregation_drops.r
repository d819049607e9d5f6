dtrace: [DTRACEDROP_AGGREGATION] 2 aggregation drops on CPU 0

  first                                                             1
