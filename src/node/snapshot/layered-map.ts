/**
 * A read-only map made of a large base and a small set of changes over it, so that a server's
 * refresh after a few edits does not copy a 50,000-entry map (~25 ms each) to change a few entries.
 * A change may also remove a key (a note deleted or renamed away).
 */

/** `base` with `top`'s entries put over it and `gone`'s keys taken out (see the module comment); iteration yields base order, then new keys. */
export class LayeredMap<K, V> implements ReadonlyMap<K, V> {
	private constructor(
		private readonly base: ReadonlyMap<K, V>,
		private readonly top: ReadonlyMap<K, V>,
		/** Keys taken out (never also in `top`). */
		private readonly gone: ReadonlySet<K>,
	) {}

	/**
	 * `base` with `changes` put over it and `removed` taken out (a key in both is put). Layering on
	 * a layered map merges the two sets of changes over the first base, so lookups stay two deep
	 * however many refreshes there were.
	 */
	static over<K, V>(
		base: ReadonlyMap<K, V>,
		changes: ReadonlyMap<K, V>,
		removed: Iterable<K> = [],
	): LayeredMap<K, V> {
		const root = base instanceof LayeredMap ? (base.base as ReadonlyMap<K, V>) : base;
		const top = base instanceof LayeredMap ? new Map(base.top as ReadonlyMap<K, V>) : new Map<K, V>();
		const gone = base instanceof LayeredMap ? new Set(base.gone as ReadonlySet<K>) : new Set<K>();
		for (const key of removed) {
			top.delete(key);
			if (root.has(key)) gone.add(key);
		}
		for (const [key, value] of changes) {
			top.set(key, value);
			gone.delete(key);
		}
		return new LayeredMap(root, top, gone);
	}

	get size(): number {
		let size = this.base.size - this.gone.size;
		for (const key of this.top.keys()) if (!this.base.has(key)) size++;
		return size;
	}

	get(key: K): V | undefined {
		if (this.top.has(key)) return this.top.get(key);
		return this.gone.has(key) ? undefined : this.base.get(key);
	}

	has(key: K): boolean {
		return this.top.has(key) || (!this.gone.has(key) && this.base.has(key));
	}

	*entries(): MapIterator<[K, V]> {
		for (const [key, value] of this.base) {
			if (this.top.has(key)) yield [key, this.top.get(key)!];
			else if (!this.gone.has(key)) yield [key, value];
		}
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
