/* SPDX-License-Identifier: MIT */
/* @@runtest-opts: -q */
/*
 * strtok()'s position belongs to the probe firing, not to one clause: a
 * later clause of the same firing continues with strtok(NULL, ...) where
 * an earlier one stopped, as an implicit clause-local variable would
 * (illumos keeps it in the firing's machine state).
 */
BEGIN
{
	this->list = "eggs;;flour,,sugar";
	this->t = strtok(this->list, ";,");
	printf("first clause: %s\n", this->t);
}

BEGIN
/(this->t = strtok(NULL, ";,")) != NULL/
{
	printf("second clause: %s\n", this->t);
}

BEGIN
{
	printf("third clause: %s\n", strtok(NULL, ";,"));
	printf("then: %s\n", strtok(NULL, ";,") == NULL ? "none left" : "more");
}

BEGIN
{
	printf("fourth clause: %s\n", strtok("", ";,") == NULL ? "none" : "one");
	exit(0);
}
