/*
 * The provider of the usdt tests' target program (usdt_target.c), turned
 * into usdt_shop.h by `dtrace -h` at build time.
 */
provider shop {
	probe order__placed(int, char *, long, short);
	probe closed();
};
