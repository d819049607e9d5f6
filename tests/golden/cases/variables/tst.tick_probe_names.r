[profile] [] [] [tick-10ms]

