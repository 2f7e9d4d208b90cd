/** A bounded map of the most recently read entries (the snapshot source's caches of decoded notes). */
/**
 * A map that holds at most `capacity` entries, dropping the least recently read or set
 * (a Map keeps insertion order: a read moves its entry to the end).
 */
export class RecentMap<K, V> {
	private readonly map = new Map<K, V>();

	constructor(private readonly capacity: number) {}

	/** The value, or undefined; marks it most recently read (only a bounded map keeps that order). */
	get(key: K): V | undefined {
		const value = this.map.get(key);
		// Unbounded (decoded metadata by default) nothing is ever dropped, so a read need not move its entry.
		if (value === undefined || this.capacity === Infinity) return value;
		this.map.delete(key);
		this.map.set(key, value);
		return value;
	}

	/** Holds `value`, dropping the least recent entry when full. */
	set(key: K, value: V): void {
		this.map.delete(key);
		this.map.set(key, value);
		if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as K);
	}

	/** Whether `key` is held (its order unchanged). */
	has(key: K): boolean {
		return this.map.has(key);
	}

	/** How many entries are held. */
	get size(): number {
		return this.map.size;
	}
}
