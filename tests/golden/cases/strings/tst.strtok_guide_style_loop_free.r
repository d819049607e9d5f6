usr lib dtrace

