dtrace: failed to compile script err.D_PRAGCTL_INVAL.unknown_directive.d: line 2: invalid control directive: #nosuchdirective
