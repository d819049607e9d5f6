dtrace: failed to compile script err.D_PRAGMA_OPTSET.negative_size.d: line 2: failed to set option 'bufsize' to '-4k': Invalid value for specified option
