dtrace: failed to compile script err.D_PRAGMA_OPTSET.unknown_option_with_value.d: line 2: failed to set option 'nosuchoption' to '1': Invalid option name
