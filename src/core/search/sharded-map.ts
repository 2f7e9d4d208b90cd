/**
 * A string-keyed Map split into shards by a cheap hash of the key. A JavaScript Map grows by
 * rehashing every entry in one go: at the build's sizes (a vocabulary and a word cache of
 * 200k–600k strings) one growth holds the thread 50–180 ms (measured: 146–186 ms at 524,288
 * entries); a shard's growth rehashes a sixty-fourth of them.
 */

const SHARD_BITS = 6; // why: 64 shards keep a 600k-entry map's growth steps near 2 ms, and cost 64 small Maps when empty.
const SHARDS = 1 << SHARD_BITS;

/** The shard of a key: its length and up to eight of its code units (the first and last four), mixed. */
function shardOf(key: string): number {
	const n = key.length;
	let h = n;
	for (let i = 0; i < n && i < 4; i++) h = Math.imul(h, 31) + key.charCodeAt(i);
	for (let i = Math.max(4, n - 4); i < n; i++) h = Math.imul(h, 31) + key.charCodeAt(i);
	h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
	return (h ^ (h >>> 12)) & (SHARDS - 1);
}

/** A Map<string, V> in shards (see the module comment); only the operations the index uses. */
export class ShardedMap<V> {
	private readonly shards: Map<string, V>[] = Array.from({ length: SHARDS }, () => new Map<string, V>());
	/** Entries held. */
	size = 0;

	/** The value of `key`, or undefined. */
	get(key: string): V | undefined {
		return this.shards[shardOf(key)]!.get(key);
	}

	/** Set the value of `key`. */
	set(key: string, value: V): void {
		const shard = this.shards[shardOf(key)]!;
		const before = shard.size;
		shard.set(key, value);
		this.size += shard.size - before;
	}

	/** Drop every entry. */
	clear(): void {
		for (const shard of this.shards) shard.clear();
		this.size = 0;
	}
}
