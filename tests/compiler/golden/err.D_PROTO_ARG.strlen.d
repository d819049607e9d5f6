BEGIN
{
	trace(strlen(1));
}
