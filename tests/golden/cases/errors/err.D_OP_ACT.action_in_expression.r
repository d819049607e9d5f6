dtrace: failed to compile script err.D_OP_ACT.action_in_expression.d: line 4: trace( ) may not be used in an expression: it is an action
