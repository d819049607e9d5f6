/* @@runtest-opts: -c /bin/true */
/*
 * A function named in a module named literally must be in that module;
 * with a module glob the description would just match nothing.
 */
pid$target:libc.so.6:no_such_function_here:entry
{
}
