dtrace: failed to compile script err.D_UNKNOWN.enumerator_listed_twice_in_one_enum.d: line 7: failed to define enumerator 'APPLE': Duplicate member or variable name
