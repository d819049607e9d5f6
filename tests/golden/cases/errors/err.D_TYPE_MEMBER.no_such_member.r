dtrace: failed to compile script err.D_TYPE_MEMBER.no_such_member.d: line 10: z is not a member of struct point
