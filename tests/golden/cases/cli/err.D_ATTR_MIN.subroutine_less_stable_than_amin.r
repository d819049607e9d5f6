dtrace: failed to compile script err.D_ATTR_MIN.subroutine_less_stable_than_amin.d: line 6: attributes for subroutine htonl( ) (Evolving/Evolving/Common) are less than predefined minimum
