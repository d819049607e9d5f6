/*
 * sdt:<group>:: names every tracepoint of a tracefs group: the signal
 * group's two events, listed in name order with no function.
 */
/* @@runtest-opts: -l */
sdt:signal::
{
}
