[llo] [lo] []

