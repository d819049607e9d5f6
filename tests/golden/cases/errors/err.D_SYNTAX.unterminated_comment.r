dtrace: failed to compile script err.D_SYNTAX.unterminated_comment.d: line 7: end-of-file encountered before matching */
