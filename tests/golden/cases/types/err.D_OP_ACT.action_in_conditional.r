dtrace: failed to compile script err.D_OP_ACT.action_in_conditional.d: line 4: action cannot be used in a conditional context
