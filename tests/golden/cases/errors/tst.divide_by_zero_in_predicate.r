dtrace: error on enabled probe ID 2 (ID 1: dtrace:::BEGIN): divide-by-zero in predicate at DIF offset 8
still tracing

