dtrace: failed to compile script err.D_DECL_LOCASSC.associative_this.d: line 2: associative arrays may not be declared as local variables: x
