ok 50%

