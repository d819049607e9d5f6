dtrace: failed to compile script tst.unknown_option_is_rejected.d: line 3: failed to set option 'nosuchoption': Invalid option name
