/**
 * A read-only map made of a large base and a small set of changes over it, so that a server's
 * refresh after a few edits does not copy a 50,000-entry map (~25 ms each) to change a few entries.
 */

/** `base` with `top`'s entries put over it (see the module comment); iteration yields base order, then new keys. */
export class LayeredMap<K, V> implements ReadonlyMap<K, V> {
	private constructor(
		private readonly base: ReadonlyMap<K, V>,
		private readonly top: ReadonlyMap<K, V>,
	) {}

	/**
	 * `base` with `changes` put over it. Layering on a layered map merges the two sets of changes
	 * over the first base, so lookups stay two deep however many refreshes there were.
	 */
	static over<K, V>(base: ReadonlyMap<K, V>, changes: ReadonlyMap<K, V>): LayeredMap<K, V> {
		if (base instanceof LayeredMap)
			return new LayeredMap<K, V>(
				base.base as ReadonlyMap<K, V>,
				new Map([...(base.top as ReadonlyMap<K, V>), ...changes]),
			);
		return new LayeredMap(base, new Map(changes));
	}

	get size(): number {
		let size = this.base.size;
		for (const key of this.top.keys()) if (!this.base.has(key)) size++;
		return size;
	}

	get(key: K): V | undefined {
		return this.top.has(key) ? this.top.get(key) : this.base.get(key);
	}

	has(key: K): boolean {
		return this.top.has(key) || this.base.has(key);
	}

	*entries(): MapIterator<[K, V]> {
		for (const [key, value] of this.base) yield [key, this.top.has(key) ? this.top.get(key)! : value];
		for (const entry of this.top) if (!this.base.has(entry[0])) yield entry;
	}

	*keys(): MapIterator<K> {
		for (const [key] of this.entries()) yield key;
	}

	*values(): MapIterator<V> {
		for (const [, value] of this.entries()) yield value;
	}

	[Symbol.iterator](): MapIterator<[K, V]> {
		return this.entries();
	}

	forEach(callback: (value: V, key: K, map: ReadonlyMap<K, V>) => void): void {
		for (const [key, value] of this.entries()) callback(value, key, this);
	}
}
