dtrace: 1 speculative drop

