
  c                                                                 1
  b                                                                 2
  a                                                                 3
