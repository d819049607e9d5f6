dtrace: failed to compile script err.D_EMPTY.script_of_comments_only.d: line 7: empty D program translation unit
