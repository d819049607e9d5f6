dtrace: failed to compile script err.D_XLATE_NOCONV.lwpsinfo_has_no_pr_nice.d: line 5: translator does not define conversion for member: pr_nice
