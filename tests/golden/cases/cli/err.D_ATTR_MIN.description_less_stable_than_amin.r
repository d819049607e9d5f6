dtrace: failed to compile script err.D_ATTR_MIN.description_less_stable_than_amin.d: line 11: attributes for clause (Unstable/Unstable/Common) are less than predefined minimum
