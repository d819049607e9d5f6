/* @@runtest-opts: -c /bin/true */
/*
 * The '-' function takes an address in the executable as its probe name,
 * so it goes with the a.out module only.
 */
pid$target:libc.so.6:-:800
{
}
