
  a                                                                 3
  b                                                                 2
  c                                                                 1
