dtrace: failed to compile script err.D_DECL_SCOPE.scoping_operator_in_declaration.d: line 4: D scoping operator may not be used in a declaration name (vmlinux`counter)
