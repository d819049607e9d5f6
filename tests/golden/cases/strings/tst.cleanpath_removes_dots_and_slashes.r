/foo/baz
/foo/bar/baz
/a/d

