dtrace: failed to compile script err.D_TRACEMEM_DYNSIZE.string_dynamic_size.d: line 4: tracemem ( ) dynamic size (argument #3) must be of scalar type
