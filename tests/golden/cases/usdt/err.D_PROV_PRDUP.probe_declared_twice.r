dtrace: failed to compile script err.D_PROV_PRDUP.probe_declared_twice.d: line 8: probe shop:::order-placed is declared twice
