

              key  min .------. max  | count
                k    0 : x  x : 16   | 2
