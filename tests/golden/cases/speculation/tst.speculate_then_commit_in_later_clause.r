direct
before commit
speculated
after commit

