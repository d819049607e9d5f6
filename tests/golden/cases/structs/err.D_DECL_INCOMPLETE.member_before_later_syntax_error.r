dtrace: failed to compile script err.D_DECL_INCOMPLETE.member_before_later_syntax_error.d: line 8: incomplete struct/union/enum struct not_yet_defined: inner
