dtrace: failed to compile script err.D_XLATE_NOCONV.io_request_has_no_error_member.d: line 9: translator does not define conversion for member: b_error
