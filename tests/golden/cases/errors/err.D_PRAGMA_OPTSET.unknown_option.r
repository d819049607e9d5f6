dtrace: failed to compile script err.D_PRAGMA_OPTSET.unknown_option.d: line 2: failed to set option 'nosuchoption': Invalid option name
