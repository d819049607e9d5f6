/* @@runtest-opts: -h -o /dev/null */
/* dtrace -h: a probe has at most twelve arguments, what a stapsdt note's reader takes. */
provider wide {
	probe many(int, int, int, int, int, int, int, int, int, int, int, int, int);
};
