sum=42 y=2 tag=q unused=0
y via pointer: 2

