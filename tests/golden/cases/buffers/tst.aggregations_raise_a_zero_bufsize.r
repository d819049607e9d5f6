recorded with bufsize=0

                1
