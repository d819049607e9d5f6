dtrace: 1 failed speculation (no speculative buffer available)
1 0

