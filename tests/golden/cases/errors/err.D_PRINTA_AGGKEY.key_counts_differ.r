dtrace: failed to compile script err.D_PRINTA_AGGKEY.key_counts_differ.d: line 6: printa( ): @a and @b do not have matching key signatures: @a has 1 key, @b has 2 keys
