/* SPDX-License-Identifier: MIT */
/*
 * A description without a provider is Unstable, whatever it matches; a
 * clause without actions has Stable statements; probefunc takes the
 * attributes of the provider's function field (Private for dtrace).
 */
/* @@runtest-opts: -q -v */
BEGIN
{
}

dtrace:::END
{
	printf("%s", probefunc);
}

dtrace:::BEGIN
{
	exit(0);
}
