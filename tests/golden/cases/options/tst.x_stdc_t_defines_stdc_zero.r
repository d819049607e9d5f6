__STDC__ = 0

