/**
 * Word → value, looked up by a range of a text rather than by a string: open addressing over
 * typed arrays, each key compared in place with the text, so a hit allocates nothing. The index
 * build looks up every word of every note (millions) and most are hits: a Map would need each
 * word sliced out of its text first, a string to allocate, hash and collect per word. Growing
 * rehashes the stored hashes only (no string is read), a few ms at a million words, so it holds a
 * host's main thread no longer than a shard of a Map would.
 */

/** The start of a word's hash (FNV-1a's offset basis); feed each code unit with {@link hashUnit}, finish with {@link hashEnd}. */
export const HASH_START = 0x811c9dc5 | 0;

/** One FNV-1a step: `h` with code unit `c` mixed in. */
export function hashUnit(h: number, c: number): number {
	return Math.imul(h ^ c, 0x01000193);
}

/** The finished hash of a word of `length` units whose units gave `h`. */
export function hashEnd(h: number, length: number): number {
	return (h ^ length) | 0;
}

/** A hash of `text[start, end)`: FNV-1a over its UTF-16 code units, then its length (a scanner can hash as it reads). */
export function hashRange(text: string, start: number, end: number): number {
	let h = HASH_START;
	for (let i = start; i < end; i++) h = hashUnit(h, text.charCodeAt(i));
	return hashEnd(h, end - start);
}

/** The word cache (see the module comment). */
export class WordCache<V> {
	/** Two units per slot: the entry's index + 1 (0 when empty) and its key's hash (hashRange), side by side so a probe reads one cache line. */
	private slots = new Int32Array(2 << 12);
	/**
	 * The keys' code units end to end, key `e` at `keyStart[e]…keyStart[e + 1]`: a hit compares
	 * against a typed array rather than a string (no string representation to dispatch on per
	 * unit), and no key string is kept (a cached word sliced from a note would hold the note).
	 */
	private units = new Uint16Array(1 << 16);
	private keyStart = new Int32Array(1 << 12);
	private readonly values: V[] = [];

	/** Entries held. */
	get size(): number {
		return this.values.length;
	}

	/** The value of the word `text[start, end)` whose hashRange is `hash`, or undefined. */
	find(text: string, start: number, end: number, hash: number): V | undefined {
		const slots = this.slots;
		const mask = (slots.length >> 1) - 1;
		const length = end - start;
		for (let i = hash & mask; ; i = (i + 1) & mask) {
			const entry = slots[2 * i]! - 1;
			if (entry < 0) return undefined;
			if (slots[2 * i + 1] !== hash) continue;
			const from = this.keyStart[entry]!;
			if (this.keyStart[entry + 1]! - from !== length) continue;
			const units = this.units;
			let k = 0;
			while (k < length && units[from + k] === text.charCodeAt(start + k)) k++;
			if (k === length) return this.values[entry]!;
		}
	}

	/** Add the word `text[start, end)` (not held yet; the whole text by default) with its hashRange `hash`. */
	add(text: string, hash: number, value: V, start = 0, end = text.length): void {
		const entry = this.values.length;
		if ((entry + 1) * 4 > this.slots.length) this.grow();
		if (entry + 2 > this.keyStart.length) this.keyStart = grown(this.keyStart, entry + 2);
		const from = this.keyStart[entry]!;
		const to = from + end - start;
		if (to > this.units.length) this.units = grown(this.units, to);
		const units = this.units;
		for (let i = start; i < end; i++) units[from + i - start] = text.charCodeAt(i);
		this.keyStart[entry + 1] = to;
		this.values.push(value);
		this.place(this.slots, entry + 1, hash);
	}

	/** Drop every entry (the arrays keep their size). */
	clear(): void {
		this.slots.fill(0);
		this.values.length = 0;
	}

	/** Put `slot` (an entry's index + 1) with its `hash` into the first free slot of `slots` from the hash on. */
	private place(slots: Int32Array, slot: number, hash: number): void {
		const mask = (slots.length >> 1) - 1;
		let i = hash & mask;
		while (slots[2 * i] !== 0) i = (i + 1) & mask;
		slots[2 * i] = slot;
		slots[2 * i + 1] = hash;
	}

	/** Twice the slots, each entry placed again from its stored hash (no key is read). */
	private grow(): void {
		const old = this.slots;
		this.slots = new Int32Array(old.length * 2);
		for (let i = 0; i < old.length; i += 2) if (old[i] !== 0) this.place(this.slots, old[i]!, old[i + 1]!);
	}
}

/** A copy of `a` with room for at least `n` elements (doubling). */
function grown<T extends Uint16Array | Int32Array>(a: T, n: number): T {
	let size = a.length * 2;
	while (size < n) size *= 2;
	const b = new (a.constructor as new (n: number) => T)(size);
	b.set(a);
	return b;
}
