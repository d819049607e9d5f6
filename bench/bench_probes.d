/*
 * USDT probes of bpf_overhead_bench (the user-space rows), turned into
 * bench_probes.h by this build's `dtrace -h`: tick fires unconditionally;
 * guarded only behind its is-enabled test (its semaphore).
 */
provider dtbench {
	probe tick(int);
	probe guarded(int);
};
