dtrace: failed to compile script err.D_PRAGMA_OPTSET.library_error_names_its_file.d: "libdir_broken/broken.d", line 2: failed to set option 'no_such_option_anywhere': Invalid option name
