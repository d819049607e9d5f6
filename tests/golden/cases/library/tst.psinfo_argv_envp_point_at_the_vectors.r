last = last, is $2 = 1, $1 = first
argv[argc] = 0
envp follows = 1
model LP64 = 1

