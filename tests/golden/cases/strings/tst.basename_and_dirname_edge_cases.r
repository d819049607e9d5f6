[/] [/]
[lib] [/usr]
[file] [.]
[usr] [/]

