dtrace: failed to compile script err.D_ASRELO.pragma_linkmode_dynamic_in_a_predicate.d: line 10: relocation remains against primary kernel symbol vmlinux`vfs_read (offset 0xb)
