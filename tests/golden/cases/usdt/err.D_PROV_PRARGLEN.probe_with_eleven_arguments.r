dtrace: failed to compile script err.D_PROV_PRARGLEN.probe_with_eleven_arguments.d: line 4: probe many has more than 10 arguments
