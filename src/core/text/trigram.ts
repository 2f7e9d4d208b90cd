/**
 * A trigram candidate index over note texts (issue 11): which notes can hold a literal, a phrase or
 * a regex match, so grep, text-search and search's `/re/` and `"phrase"` clauses read only those.
 * The real matcher still verifies every note it returns, so answers equal a full scan.
 *
 * ```ts
 * const index = new TrigramIndex();
 * index.upsert('a.md', text);            // add or replace a note (its whole text)
 * index.remove('a.md');
 * index.candidates(literalQuery('kelly')) // Set of paths, or null = no usable trigram: scan all
 * const bytes = index.serialize();        // Uint8Array, compact; persist it anywhere
 * const again = TrigramIndex.deserialize(bytes); // throws TrigramFormatError on a bad or foreign blob
 * ```
 *
 * Texts are indexed in {@link indexForm} (NFC, case-folded, CRLF as LF); trigrams are hashed to
 * 32-bit keys (a collision only adds candidates). Removing a note leaves a hole that `upsert` never
 * reuses; holes are squeezed out when they outnumber the notes, and by `serialize`.
 */
import { indexForm, trigramKey, type TrigramQuery } from './trigram-query';

/** Format version of {@link TrigramIndex.serialize}; a blob of another version is refused. */
export const TRIGRAM_FORMAT_VERSION = 1;

/** A serialised index that cannot be read (truncated, corrupted, another version). */
export class TrigramFormatError extends Error {}

/** The distinct trigram keys of a text's index form. */
function keysOf(text: string): Set<number> {
	const form = indexForm(text);
	const keys = new Set<number>();
	for (let i = 0; i + 3 <= form.length; i++) keys.add(trigramKey(form, i));
	return keys;
}

/** The ids in both sets. */
function intersect(a: Set<number>, b: Set<number>): Set<number> {
	const out = new Set<number>();
	for (const id of a) if (b.has(id)) out.add(id);
	return out;
}

/** The candidate index. */
export class TrigramIndex {
	/** Path of each note id; null where a note was removed. */
	private paths: (string | null)[] = [];
	private readonly ids = new Map<string, number>();
	/** Note ids holding each trigram key, ascending. */
	private postings = new Map<number, number[]>();
	private holes = 0;

	/** Notes indexed. */
	get size(): number {
		return this.ids.size;
	}

	/** Whether `path` is indexed. */
	has(path: string): boolean {
		return this.ids.has(path);
	}

	/** Add a note, or replace what was indexed for it. */
	upsert(path: string, text: string): void {
		this.remove(path);
		const id = this.paths.length;
		this.paths.push(path);
		this.ids.set(path, id);
		for (const key of keysOf(text)) {
			const list = this.postings.get(key);
			if (list) list.push(id);
			else this.postings.set(key, [id]);
		}
	}

	/** Forget a note (no-op when it is not indexed). */
	remove(path: string): void {
		const id = this.ids.get(path);
		if (id === undefined) return;
		this.ids.delete(path);
		this.paths[id] = null;
		this.holes++;
		if (this.holes > 1000 && this.holes > this.ids.size) this.compact();
	}

	/** Forget `path` and every note under it as a folder: they are then unknown, and a search scans them. */
	forget(path: string): void {
		this.remove(path);
		const prefix = `${path}/`;
		for (const known of [...this.ids.keys()]) if (known.startsWith(prefix)) this.remove(known);
	}

	/** Paths of the notes that can satisfy `query`, or null when it requires nothing (scan every note). */
	candidates(query: TrigramQuery): Set<string> | null {
		const ids = this.evaluate(query);
		if (ids === null) return null;
		const out = new Set<string>();
		for (const id of ids) {
			const path = this.paths[id];
			if (path !== null && path !== undefined) out.add(path);
		}
		return out;
	}

	private evaluate(query: TrigramQuery): Set<number> | null {
		switch (query.op) {
			case 'any':
				return null;
			case 'tri':
				return new Set(this.postings.get(query.key) ?? []);
			case 'and': {
				let acc: Set<number> | null = null;
				// Rarest first keeps the running intersection small.
				const subs = [...query.subs].sort((a, b) => this.estimate(a) - this.estimate(b));
				for (const sub of subs) {
					const ids = this.evaluate(sub);
					if (ids === null) continue;
					acc = acc === null ? ids : intersect(acc, ids);
					if (acc.size === 0) break;
				}
				return acc;
			}
			case 'or': {
				const acc = new Set<number>();
				for (const sub of query.subs) {
					const ids = this.evaluate(sub);
					if (ids === null) return null;
					for (const id of ids) acc.add(id);
				}
				return acc;
			}
		}
	}

	private estimate(query: TrigramQuery): number {
		return query.op === 'tri' ? (this.postings.get(query.key)?.length ?? 0) : query.op === 'any' ? Infinity : this.paths.length;
	}

	/** Renumber the notes densely, dropping holes. */
	private compact(): void {
		const remap = new Int32Array(this.paths.length).fill(-1);
		const paths: string[] = [];
		this.paths.forEach((path, id) => {
			if (path === null) return;
			remap[id] = paths.length;
			this.ids.set(path, paths.length);
			paths.push(path);
		});
		const postings = new Map<number, number[]>();
		for (const [key, list] of this.postings) {
			const kept = list.map((id) => remap[id]).filter((id) => id >= 0);
			if (kept.length > 0) postings.set(key, kept);
		}
		this.paths = paths;
		this.postings = postings;
		this.holes = 0;
	}

	/**
	 * The index as bytes: version, paths (length-prefixed UTF-16 units), then per trigram its key and
	 * its note ids as deltas, all as unsigned LEB128 varints. About 1–2 bytes per posting.
	 */
	serialize(): Uint8Array {
		this.compact();
		const out = new ByteWriter();
		out.uint(TRIGRAM_FORMAT_VERSION);
		out.uint(this.paths.length);
		for (const path of this.paths) out.text(path ?? '');
		out.uint(this.postings.size);
		for (const [key, list] of this.postings) {
			out.uint(key >>> 0);
			out.uint(list.length);
			let previous = 0;
			for (const id of list) {
				out.uint(id - previous);
				previous = id;
			}
		}
		return out.finish();
	}

	/** Read {@link serialize}'s bytes back; throws {@link TrigramFormatError} when they are not a valid index of this version. */
	static deserialize(data: Uint8Array): TrigramIndex {
		const input = new ByteReader(data);
		const version = input.uint();
		if (version !== TRIGRAM_FORMAT_VERSION) throw new TrigramFormatError(`trigram index: format ${version}, expected ${TRIGRAM_FORMAT_VERSION}`);
		const index = new TrigramIndex();
		const count = input.uint();
		for (let id = 0; id < count; id++) {
			const path = input.text();
			if (index.ids.has(path)) throw new TrigramFormatError(`trigram index: "${path}" twice`);
			index.paths.push(path);
			index.ids.set(path, id);
		}
		const keys = input.uint();
		for (let k = 0; k < keys; k++) {
			const key = input.uint() | 0;
			const length = input.uint();
			const list: number[] = [];
			let id = 0;
			for (let j = 0; j < length; j++) {
				id += input.uint();
				if (id >= count || (j > 0 && id === list[j - 1])) throw new TrigramFormatError('trigram index: a note id out of range');
				list.push(id);
			}
			index.postings.set(key, list);
		}
		if (!input.done()) throw new TrigramFormatError('trigram index: bytes after the end');
		return index;
	}
}

/** Appends varints and length-prefixed byte strings. */
class ByteWriter {
	private buffer = new Uint8Array(1 << 16);
	private length = 0;

	private room(n: number): void {
		if (this.length + n <= this.buffer.length) return;
		const bigger = new Uint8Array(Math.max(this.buffer.length * 2, this.length + n));
		bigger.set(this.buffer.subarray(0, this.length));
		this.buffer = bigger;
	}

	uint(value: number): void {
		this.room(8);
		let v = value;
		while (v >= 0x80) {
			this.buffer[this.length++] = (v & 0x7f) | 0x80;
			v = Math.floor(v / 128);
		}
		this.buffer[this.length++] = v;
	}

	/** A string as its length and UTF-16 code units (core has no TextEncoder; paths are short). */
	text(value: string): void {
		this.uint(value.length);
		for (let i = 0; i < value.length; i++) this.uint(value.charCodeAt(i));
	}

	finish(): Uint8Array {
		return this.buffer.slice(0, this.length);
	}
}

/** Reads what {@link ByteWriter} wrote, refusing to run past the end. */
class ByteReader {
	private at = 0;

	constructor(private readonly data: Uint8Array) {}

	uint(): number {
		let value = 0;
		let scale = 1;
		for (let i = 0; i < 8; i++) {
			if (this.at >= this.data.length) throw new TrigramFormatError('trigram index: truncated');
			const byte = this.data[this.at++];
			value += (byte & 0x7f) * scale;
			if (byte < 0x80) return value;
			scale *= 128;
		}
		throw new TrigramFormatError('trigram index: a number too long');
	}

	text(): string {
		const length = this.uint();
		if (this.at + length > this.data.length) throw new TrigramFormatError('trigram index: truncated');
		let out = '';
		for (let i = 0; i < length; i++) {
			const unit = this.uint();
			if (unit > 0xffff) throw new TrigramFormatError('trigram index: a path is not text');
			out += String.fromCharCode(unit);
		}
		return out;
	}

	done(): boolean {
		return this.at === this.data.length;
	}
}
