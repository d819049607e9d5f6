dtrace: 144 dynamic variable drops

