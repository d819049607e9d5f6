lock word              read_held write_held iswriter
free                           0          0        0
two readers                    1          0        0
a writer                       0          1        1
reader, writer waits           1          0        1

