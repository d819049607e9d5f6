/* SPDX-License-Identifier: MIT */
/*
 * dif_dstate.h - VM-internal interface of the dynamic-variable store
 * (the public part, dif_dstate_t and its init/clean, is in dif_env.h).
 *
 * dif_emulate.c finds, creates and deletes entries through these; key
 * contents of by-ref tuple elements (strings) are read through a reader
 * callback so that this file never touches traced memory itself. An entry
 * is named by its chunk number (1-based, 0 = none).
 */
#ifndef DTRACE_DIF_DSTATE_H
#define DTRACE_DIF_DSTATE_H

#include "dif_env.h"

/* Most keys an entry has: the tuple, the variable id, the thread key. */
#define DIF_DVAR_MAXKEYS (DIF_DTR_NREGS + 2)

/* Reads one byte of a by-ref key; the reader records faults itself. */
typedef uint8_t (*dif_dvar_reader_t)(void *arg, uint64_t addr);

typedef struct dif_dvar_key {
	const dif_tuple_t *keys; /* by-ref: value is the address, size the bytes */
	uint32_t nkeys;
	uint8_t scope; /* DIFV_SCOPE_GLOBAL or DIFV_SCOPE_THREAD */
	dif_dvar_reader_t read;
	void *arg;
} dif_dvar_key_t;

/* The entry with this key, or 0. */
uint32_t dif_dvar_find(dif_dstate_t *ds, const dif_dvar_key_t *k);

/*
 * The entry with this key, created (value zeroed) if missing; 0 if the
 * store is full or the entry cannot fit a chunk (counted in ds->drops).
 */
uint32_t dif_dvar_get(dif_dstate_t *ds, const dif_dvar_key_t *k, uint64_t valsize);

/* Delete the entry with this key if there is one. */
void dif_dvar_delete(dif_dstate_t *ds, const dif_dvar_key_t *k);

/* The value bytes of entry n and their size. */
uint8_t *dif_dvar_value(dif_dstate_t *ds, uint32_t n, uint64_t *size);

/*
 * If [addr, addr + size) lies inside the value of a live or dirty entry,
 * its host pointer; else NULL (DTrace-owned memory checks).
 */
uint8_t *dif_dvar_owned(dif_dstate_t *ds, uint64_t addr, uint64_t size);

#endif /* DTRACE_DIF_DSTATE_H */
