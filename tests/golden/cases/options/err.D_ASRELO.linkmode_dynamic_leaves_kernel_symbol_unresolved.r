dtrace: failed to compile script err.D_ASRELO.linkmode_dynamic_leaves_kernel_symbol_unresolved.d: line 12: relocation remains against primary kernel symbol vmlinux`vfs_read (offset 0x1)
