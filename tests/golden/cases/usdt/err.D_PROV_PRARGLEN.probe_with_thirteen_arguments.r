dtrace: failed to compile script err.D_PROV_PRARGLEN.probe_with_thirteen_arguments.d: line 4: probe many input prototype exceeds 12 parameters: 13 params used
