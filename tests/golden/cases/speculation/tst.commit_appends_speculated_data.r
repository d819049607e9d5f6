direct
speculated

