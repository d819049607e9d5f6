/* @@runtest-opts: -h -o /dev/null */
/*
 * dtrace -h: a provider declares each probe once; "__" in a probe's name
 * is "-", so these two are the same probe.
 */
provider shop {
	probe order__placed(int);
	probe order-placed(int, char *);
};
