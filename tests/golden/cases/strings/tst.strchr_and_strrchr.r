[llo] [lo] 1

