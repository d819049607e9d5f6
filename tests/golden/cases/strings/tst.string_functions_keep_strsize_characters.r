[abcde] 5
[bcdef]
[abcde]
[abcde]
[abcde]
[abcde]
[abc]

