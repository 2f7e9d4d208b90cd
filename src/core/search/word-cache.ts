/**
 * Word → value, looked up by a range of a text rather than by a string: open addressing over
 * typed arrays, each key compared in place with the text, so a hit allocates nothing. The index
 * build looks up every word of every note (millions) and most are hits: a Map would need each
 * word sliced out of its text first, a string to allocate, hash and collect per word. Growing
 * rehashes the stored hashes only (no string is read), a few ms at a million words, so it holds a
 * host's main thread no longer than a shard of a Map would.
 */

/** A hash of `text[start, end)` (FNV-1a over UTF-16 code units, seeded with the length). */
export function hashRange(text: string, start: number, end: number): number {
	let h = 0x811c9dc5 ^ (end - start);
	for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
	return h | 0;
}

/** The word cache (see the module comment). */
export class WordCache<V> {
	/** Two units per slot: the entry's index + 1 (0 when empty) and its key's hash (hashRange), side by side so a probe reads one cache line. */
	private slots = new Int32Array(2 << 12);
	private readonly keys: string[] = [];
	private readonly values: V[] = [];

	/** Entries held. */
	get size(): number {
		return this.keys.length;
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
			const key = this.keys[entry]!;
			if (key.length !== length) continue;
			let k = 0;
			while (k < length && key.charCodeAt(k) === text.charCodeAt(start + k)) k++;
			if (k === length) return this.values[entry];
		}
	}

	/** Add `word` (not held yet) with its hashRange `hash`. */
	add(word: string, hash: number, value: V): void {
		const entry = this.keys.length;
		if ((entry + 1) * 4 > this.slots.length) this.grow();
		this.keys.push(word);
		this.values.push(value);
		this.place(this.slots, entry + 1, hash);
	}

	/** Drop every entry (the arrays keep their size). */
	clear(): void {
		this.slots.fill(0);
		this.keys.length = 0;
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
