
  abc                                                       7                1
