#!/usr/sbin/dtrace -s

BEGIN
{
	trace(nosuchvar);
}
