/* @@runtest-opts: -c /bin/true */
/*
 * A pid probe is entry, return, or an instruction offset in hex:
 * "beginning" is none of them.
 */
pid$target:libc.so.6:malloc:beginning
{
}
