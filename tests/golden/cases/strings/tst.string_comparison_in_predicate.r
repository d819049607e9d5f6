matched
ordered

