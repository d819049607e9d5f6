dtrace: failed to compile script err.D_PRAGMA_OPTSET.cpppath_only_from_the_command_line.d: line 4: failed to set option 'cpppath' to '/usr/bin/cpp': Option cannot be used from within a D program
