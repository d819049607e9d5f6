vmlinux`vfs_read

