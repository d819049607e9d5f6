dtrace: failed to compile script err.D_DECL_BFCONST.negative_width.d: line 3: positive integral constant expression expected as bit-field size
