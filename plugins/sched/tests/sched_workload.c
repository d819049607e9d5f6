// SPDX-License-Identifier: MIT
// The sched provider tests' workload for the rarer probes:
// - change-pri: a priority-inheritance mutex held by the main thread while
//   a thread of higher priority (nice -5: the test runs as root) waits for
//   it, which lends the main thread its priority (sched_pi_setprio) and
//   takes it back at the unlock;
// - remain-cpu: sched_yield() a thousand times, some of them with nothing
//   else to run on the CPU, so that __schedule() keeps the thread.
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

static pthread_mutex_t lock;

static void *waiter(void *arg)
{
	(void)arg;
	if (setpriority(PRIO_PROCESS, (id_t)gettid(), -5) != 0)
		perror("setpriority");
	pthread_mutex_lock(&lock);
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(void)
{
	pthread_mutexattr_t a;
	pthread_t t;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT);
	pthread_mutex_init(&lock, &a);
	pthread_mutex_lock(&lock);
	if (pthread_create(&t, NULL, waiter, NULL) != 0)
		return 1;
	usleep(200000); /* the waiter blocks on the lock, boosting us */
	pthread_mutex_unlock(&lock);
	pthread_join(t, NULL);
	for (int i = 0; i < 1000; i++)
		sched_yield();
	return 0;
}
