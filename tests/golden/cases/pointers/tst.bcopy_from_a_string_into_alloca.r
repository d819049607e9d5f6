tracing
BEGcing

