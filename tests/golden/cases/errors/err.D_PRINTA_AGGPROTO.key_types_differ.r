dtrace: failed to compile script err.D_PRINTA_AGGPROTO.key_types_differ.d: line 11: printa( ): @names[ ] key #1 is incompatible with @hits:
     hits key #1: int
    names key #1: string
