tick-10ms

