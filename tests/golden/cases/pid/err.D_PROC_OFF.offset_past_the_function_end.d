/* @@runtest-opts: -c /bin/true */
/*
 * An offset probe's name is an offset inside the function; malloc is
 * not a megabyte long.
 */
pid$target:libc.so.6:malloc:100000
{
}
