/* SPDX-License-Identifier: MIT */
/* @@runtest-opts: -q */
/*
 * rw_read_held(), rw_write_held() and rw_iswriter() read a Linux rwlock_t,
 * whose first word counts readers from bit 9 up and keeps a writer's byte
 * (0xff) and a waiting writer's bit (0x100) below. Here the word is one
 * this clause writes in scratch: free, two readers, a writer, and readers
 * with a writer waiting.
 */
BEGIN
{
	this->lock = (rwlock_t *)alloca(8);
	this->word = (uint32_t *)this->lock;
	printf("%-22s %s %s %s\n", "lock word", "read_held", "write_held", "iswriter");

	*this->word = 0;
	printf("%-22s %9d %10d %8d\n", "free", rw_read_held(this->lock),
	    rw_write_held(this->lock), rw_iswriter(this->lock));

	*this->word = 2 << 9;
	printf("%-22s %9d %10d %8d\n", "two readers", rw_read_held(this->lock),
	    rw_write_held(this->lock), rw_iswriter(this->lock));

	*this->word = 0xff;
	printf("%-22s %9d %10d %8d\n", "a writer", rw_read_held(this->lock),
	    rw_write_held(this->lock), rw_iswriter(this->lock));

	*this->word = (1 << 9) | 0x100;
	printf("%-22s %9d %10d %8d\n", "reader, writer waits", rw_read_held(this->lock),
	    rw_write_held(this->lock), rw_iswriter(this->lock));
	exit(0);
}
