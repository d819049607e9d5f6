struct foo {
    int a = 0x1
    uint64_t b = 0x1234
    char [8] name = [ "ab" ]
    struct inner in = {
        short s = 0x7
        char c = 'z'
    }
    int *p = 0
}

