/* SPDX-License-Identifier: MIT */
/* An action's arguments are checked against its prototype before the
 * conditional operator refuses it. */
BEGIN
{
	x = 1 ? exit() : exit(1);
}
