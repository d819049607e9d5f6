dtrace: failed to compile script err.D_PRAGMA_MALFORM.superfluous_option_arguments.d: line 2: superfluous arguments specified for #pragma option
