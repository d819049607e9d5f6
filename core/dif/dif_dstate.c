// SPDX-License-Identifier: MIT
/*
 * dif_dstate.c - the dynamic-variable store (illumos dtrace_dynvar and
 * dtrace_dstate_init, simplified to one serialized arena).
 *
 * Freestanding C11 shared with dtrace.ko (see dif_compat.h).
 *
 *   arena ─┬─ buckets[nbuckets]      chain heads, chunk numbers (0 = none)
 *          └─ chunk 1 .. nchunks     each chunksize bytes:
 *               header (32)  next, hash, nkeys, keybytes, valsize, scope
 *               keys[nkeys]  dif_tuple_t: by-value value, or (0, size)
 *               key bytes    contents of the by-ref keys, in order
 *               value        valsize bytes
 *
 *   get:    hash the key ─► walk the bucket ─► found: reuse
 *                                           └► take the free list head,
 *                                              copy the key, zero the value
 *   delete: unlink ─► dirty list ─► (dif_dstate_clean) ─► free list
 *
 * Every chain walk is bounded by nchunks, every chunk number is checked.
 */
#include "dif_dstate.h"

struct dv_hdr {
	uint32_t next;
	uint32_t hash;
	uint32_t nkeys;
	uint32_t keybytes; /* by-ref key bytes, rounded up to 8 */
	uint64_t valsize;  /* 0 on the free list */
	uint32_t scope;
	uint32_t pad;
};

#define DV_HDR_SIZE 32u

_Static_assert(sizeof(struct dv_hdr) == DV_HDR_SIZE, "chunk header size");
_Static_assert(sizeof(dif_tuple_t) == 16, "tuple size");

static uint64_t round8(uint64_t x)
{
	return (x + 7) & ~(uint64_t)7;
}

static struct dv_hdr *chunk(dif_dstate_t *ds, uint32_t n)
{
	if (n == 0 || n > ds->nchunks)
		return NULL;
	return (struct dv_hdr *)(void *)(ds->chunks + (uint64_t)(n - 1) * ds->chunksize);
}

static dif_tuple_t *chunk_keys(struct dv_hdr *h)
{
	return (dif_tuple_t *)(void *)((uint8_t *)h + DV_HDR_SIZE);
}

static uint8_t *chunk_keydata(struct dv_hdr *h)
{
	return (uint8_t *)h + DV_HDR_SIZE + (uint64_t)h->nkeys * sizeof(dif_tuple_t);
}

static uint8_t *chunk_value(struct dv_hdr *h)
{
	return chunk_keydata(h) + h->keybytes;
}

int dif_dstate_init(dif_dstate_t *ds, void *mem, uint64_t size, uint64_t chunksize)
{
	uint64_t n, nb = 1, bytes;

	chunksize = round8(chunksize < DV_HDR_SIZE + 8 ? DV_HDR_SIZE + 8 : chunksize);
	ds->base = (uint8_t *)mem;
	ds->size = size;
	ds->chunksize = chunksize;
	ds->nbuckets = ds->nchunks = 0;
	ds->buckets = NULL;
	ds->chunks = NULL;
	ds->free = ds->dirty = ds->nused = 0;
	ds->drops = ds->dirty_drops = 0;
	if (!mem || ((uintptr_t)mem & 7) || size < 8 + chunksize)
		return -1;
	/* About one bucket per chunk, a power of two. */
	n = size / (chunksize + 4);
	while (nb * 2 <= n && nb < (1u << 30))
		nb *= 2;
	bytes = round8(nb * 4);
	n = (size - bytes) / chunksize;
	if (n > 0xfffffffeu)
		n = 0xfffffffeu;
	if (n == 0)
		return -1;
	ds->nbuckets = (uint32_t)nb;
	ds->nchunks = (uint32_t)n;
	ds->buckets = (uint32_t *)mem;
	ds->chunks = (uint8_t *)mem + bytes;
	for (uint64_t i = 0; i < nb; i++)
		ds->buckets[i] = 0;
	/* Free list in address order: chunk 1 first. */
	for (uint32_t i = ds->nchunks; i >= 1; i--) {
		struct dv_hdr *h = chunk(ds, i);

		h->next = ds->free;
		h->valsize = 0;
		h->nkeys = h->keybytes = 0;
		ds->free = i;
	}
	return 0;
}

void dif_dstate_clean(dif_dstate_t *ds)
{
	uint32_t n = ds->dirty, steps = 0;

	while (n && steps++ < ds->nchunks) {
		struct dv_hdr *h = chunk(ds, n);
		uint32_t next;

		if (!h)
			break;
		next = h->next;
		h->valsize = 0;
		h->next = ds->free;
		ds->free = n;
		n = next;
	}
	ds->dirty = 0;
}

/* FNV-1a over the key words and the by-ref contents. */
static uint32_t hash_add(uint32_t h, uint64_t v, uint32_t bytes)
{
	for (uint32_t i = 0; i < bytes; i++) {
		h ^= (uint8_t)(v >> (8 * i));
		h *= 16777619u;
	}
	return h;
}

static uint32_t key_hash(const dif_dvar_key_t *k)
{
	uint32_t h = hash_add(2166136261u, k->scope, 1);

	for (uint32_t i = 0; i < k->nkeys; i++) {
		const dif_tuple_t *t = &k->keys[i];

		if (t->size == 0) {
			h = hash_add(h, t->value, 8);
			continue;
		}
		h = hash_add(h, t->size, 8);
		for (uint64_t j = 0; j < t->size; j++)
			h = hash_add(h, k->read(k->arg, t->value + j), 1);
	}
	return h;
}

static uint64_t key_bytes(const dif_dvar_key_t *k)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < k->nkeys; i++)
		n += k->keys[i].size;
	return n;
}

static bool key_matches(struct dv_hdr *h, uint32_t hash, const dif_dvar_key_t *k)
{
	const dif_tuple_t *ck = chunk_keys(h);
	const uint8_t *data = chunk_keydata(h);

	if (h->hash != hash || h->nkeys != k->nkeys || h->scope != k->scope)
		return false;
	for (uint32_t i = 0; i < k->nkeys; i++) {
		const dif_tuple_t *t = &k->keys[i];

		if (ck[i].size != t->size)
			return false;
		if (t->size == 0) {
			if (ck[i].value != t->value)
				return false;
			continue;
		}
		for (uint64_t j = 0; j < t->size; j++)
			if (*data++ != k->read(k->arg, t->value + j))
				return false;
	}
	return true;
}

/* Find: the entry and, in *prevp, its predecessor in the chain (0 = head). */
static uint32_t lookup(dif_dstate_t *ds, const dif_dvar_key_t *k, uint32_t hash, uint32_t *prevp)
{
	uint32_t n = ds->buckets[hash & (ds->nbuckets - 1)], prev = 0, steps = 0;

	while (n && steps++ < ds->nchunks) {
		struct dv_hdr *h = chunk(ds, n);

		if (!h)
			return 0;
		if (key_matches(h, hash, k)) {
			if (prevp)
				*prevp = prev;
			return n;
		}
		prev = n;
		n = h->next;
	}
	return 0;
}

uint32_t dif_dvar_find(dif_dstate_t *ds, const dif_dvar_key_t *k)
{
	if (!ds->nchunks || k->nkeys > DIF_DVAR_MAXKEYS)
		return 0;
	return lookup(ds, k, key_hash(k), NULL);
}

static void drop(dif_dstate_t *ds)
{
	ds->drops++;
	if (ds->dirty)
		ds->dirty_drops++;
}

uint32_t dif_dvar_get(dif_dstate_t *ds, const dif_dvar_key_t *k, uint64_t valsize)
{
	uint32_t hash, n, *head;
	uint64_t kb, need;
	struct dv_hdr *h;
	dif_tuple_t *ck;
	uint8_t *data, *val;

	if (!ds->nchunks || k->nkeys > DIF_DVAR_MAXKEYS)
		return 0;
	hash = key_hash(k);
	n = lookup(ds, k, hash, NULL);
	if (n)
		return n;
	kb = round8(key_bytes(k));
	need = DV_HDR_SIZE + (uint64_t)k->nkeys * sizeof(dif_tuple_t) + kb + round8(valsize);
	h = chunk(ds, ds->free);
	if (need > ds->chunksize || kb > 0xffffffffu || !h) {
		drop(ds);
		return 0;
	}
	n = ds->free;
	ds->free = h->next;
	h->hash = hash;
	h->nkeys = k->nkeys;
	h->keybytes = (uint32_t)kb;
	h->valsize = valsize ? valsize : 1;
	h->scope = k->scope;
	h->pad = 0;
	ck = chunk_keys(h);
	data = chunk_keydata(h);
	for (uint32_t i = 0; i < k->nkeys; i++) {
		const dif_tuple_t *t = &k->keys[i];

		ck[i].size = t->size;
		ck[i].value = t->size ? 0 : t->value;
		for (uint64_t j = 0; j < t->size; j++)
			*data++ = k->read(k->arg, t->value + j);
	}
	val = chunk_value(h);
	for (uint64_t i = 0; i < round8(valsize); i++)
		val[i] = 0;
	head = &ds->buckets[hash & (ds->nbuckets - 1)];
	h->next = *head;
	*head = n;
	ds->nused++;
	return n;
}

void dif_dvar_delete(dif_dstate_t *ds, const dif_dvar_key_t *k)
{
	uint32_t hash, n, prev = 0;
	struct dv_hdr *h;

	if (!ds->nchunks || k->nkeys > DIF_DVAR_MAXKEYS)
		return;
	hash = key_hash(k);
	n = lookup(ds, k, hash, &prev);
	h = chunk(ds, n);
	if (!h)
		return;
	if (prev)
		chunk(ds, prev)->next = h->next;
	else
		ds->buckets[hash & (ds->nbuckets - 1)] = h->next;
	/* The value stays readable until dif_dstate_clean(). */
	h->next = ds->dirty;
	ds->dirty = n;
	ds->nused--;
}

void dif_dstate_clear_thread(dif_dstate_t *ds, uint64_t tkey)
{
	for (uint32_t b = 0; b < ds->nbuckets; b++) {
		uint32_t *link = &ds->buckets[b], steps = 0;

		while (*link && steps++ < ds->nchunks) {
			struct dv_hdr *h = chunk(ds, *link);
			uint32_t n = *link;

			if (!h)
				break;
			if (h->scope == DIFV_SCOPE_THREAD && h->nkeys &&
			    chunk_keys(h)[h->nkeys - 1].size == 0 &&
			    chunk_keys(h)[h->nkeys - 1].value == tkey) {
				*link = h->next;
				h->next = ds->dirty;
				ds->dirty = n;
				ds->nused--;
				continue;
			}
			link = &h->next;
		}
	}
}

uint8_t *dif_dvar_value(dif_dstate_t *ds, uint32_t n, uint64_t *size)
{
	struct dv_hdr *h = chunk(ds, n);

	if (!h)
		return NULL;
	if (size)
		*size = h->valsize;
	return chunk_value(h);
}

uint8_t *dif_dvar_owned(dif_dstate_t *ds, uint64_t addr, uint64_t size)
{
	uint64_t base, off, voff;
	struct dv_hdr *h;

	if (!ds || !ds->nchunks)
		return NULL;
	base = (uint64_t)(uintptr_t)ds->chunks;
	if (addr < base || addr - base >= (uint64_t)ds->nchunks * ds->chunksize)
		return NULL;
	off = addr - base;
	h = chunk(ds, (uint32_t)DIF_UDIV64(off, ds->chunksize) + 1);
	off = DIF_UREM64(off, ds->chunksize);
	if (!h || h->valsize == 0 || h->nkeys > DIF_DVAR_MAXKEYS)
		return NULL;
	voff = DV_HDR_SIZE + (uint64_t)h->nkeys * sizeof(dif_tuple_t) + h->keybytes;
	if (off < voff || size > h->valsize || off - voff > h->valsize - size)
		return NULL;
	return (uint8_t *)h + off;
}
