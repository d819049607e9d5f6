__STDC__ is not defined

