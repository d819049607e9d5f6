1 1 [dtrace] [] [] [BEGIN]

