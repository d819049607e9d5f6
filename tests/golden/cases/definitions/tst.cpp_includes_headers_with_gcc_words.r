__s8 -3, __u16 2, max_align_t members 1
va_list is opaque, 1 bytes
FILE * 1

