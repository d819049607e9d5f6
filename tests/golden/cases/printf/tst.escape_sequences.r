a	b\c"dA

