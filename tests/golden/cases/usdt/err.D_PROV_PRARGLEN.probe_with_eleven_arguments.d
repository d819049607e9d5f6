/* @@runtest-opts: -h -o /dev/null */
/* dtrace -h: a probe has at most ten arguments. */
provider wide {
	probe many(int, int, int, int, int, int, int, int, int, int, int);
};
