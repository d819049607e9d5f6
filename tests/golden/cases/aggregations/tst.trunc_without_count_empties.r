
  y                                                                 1
