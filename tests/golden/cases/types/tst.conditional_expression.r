big small
1
o

