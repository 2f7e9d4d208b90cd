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
 * const columns = index.columns();       // sorted keys + varint postings: persist them anywhere
 * const again = TrigramIndex.fromColumns(columns); // postings decoded per key, when a query asks
 * ```
 *
 * Texts are indexed in {@link indexForm} (NFC, case-folded, CRLF as LF); trigrams are hashed to
 * 32-bit keys (a collision only adds candidates). A loaded index keeps its columns as they are (a
 * frozen base, decoded one key at a time) and holds changes beside them; removing a note leaves a
 * hole that is squeezed out when the index is written again.
 */
import { indexForm, trigramKey, type TrigramQuery } from './trigram-query';
import { TrigramFormatError, VarintReader, VarintWriter } from './trigram-varint';

export { TrigramFormatError } from './trigram-varint';

/** Format version of {@link TrigramIndex.serialize} and of the columns; another version is refused. */
export const TRIGRAM_FORMAT_VERSION = 2;

/** The index as columns (see the module comment); typed arrays may be views into a file's bytes. */
export interface TrigramColumns {
	/** Path of each note id. */
	paths: string[];
	/** Distinct trigram keys, ascending. */
	keys: Int32Array;
	/** Postings of `keys[i]` are `postings[starts[i], starts[i + 1])`: ascending note ids as varint deltas. */
	starts: Uint32Array;
	postings: Uint8Array | PostingReader;
}

/**
 * Postings left where they were saved and read a key's range at a time (a saved part's file): at
 * 50k notes they are ~65 MB, of which a query reads a few kB, and the server held them all.
 */
export interface PostingReader {
	/** Bytes in all. */
	readonly length: number;
	/** Bytes [from, to). */
	read(from: number, to: number): Uint8Array;
}

/** Columns whose postings are bytes in memory (read whole from a reader). */
function held(columns: TrigramColumns): TrigramColumns & { postings: Uint8Array } {
	const { postings } = columns;
	return postings instanceof Uint8Array
		? { ...columns, postings }
		: { ...columns, postings: postings.read(0, postings.length) };
}

/** The distinct trigram keys of a text's index form, ascending. */
function keysOf(text: string): Int32Array {
	const form = indexForm(text);
	if (form.length < 3) return new Int32Array(0);
	const keys = new Int32Array(form.length - 2);
	for (let i = 0; i < keys.length; i++) keys[i] = trigramKey(form, i);
	keys.sort();
	let n = 1;
	for (let i = 1; i < keys.length; i++) if (keys[i] !== keys[n - 1]) keys[n++] = keys[i]!;
	return keys.subarray(0, n);
}

/** Candidates few enough that an 'and' stops narrowing them (they are verified by the real matcher anyway). */
const FEW_CANDIDATES = 16;

/** The ids in both ascending lists, ascending (one merge pass). */
function intersectSorted(a: Int32Array, b: ArrayLike<number>): Int32Array {
	const out = new Int32Array(Math.min(a.length, b.length));
	let n = 0;
	let j = 0;
	for (let i = 0; i < a.length && j < b.length; i++) {
		const id = a[i]!;
		while (j < b.length && b[j]! < id) j++;
		if (j < b.length && b[j] === id) out[n++] = id;
	}
	return out.subarray(0, n);
}

/** The ids in any of the ascending lists, ascending and distinct. */
function unionSorted(lists: ArrayLike<number>[]): Int32Array {
	let total = 0;
	for (const list of lists) total += list.length;
	const all = new Int32Array(total);
	let at = 0;
	for (const list of lists) for (let i = 0; i < list.length; i++) all[at++] = list[i]!;
	all.sort();
	let n = 0;
	for (let i = 0; i < all.length; i++) if (n === 0 || all[i] !== all[n - 1]) all[n++] = all[i]!;
	return all.subarray(0, n);
}

/** Position of `key` in ascending `keys`, or -1. */
function find(keys: Int32Array, key: number): number {
	let lo = 0;
	let hi = keys.length - 1;
	while (lo <= hi) {
		const mid = (lo + hi) >>> 1;
		const v = keys[mid]!;
		if (v === key) return mid;
		if (v < key) lo = mid + 1;
		else hi = mid - 1;
	}
	return -1;
}

/** The candidate index. */
export class TrigramIndex {
	/** Path of each note id; null where a note was removed. */
	private paths: (string | null)[] = [];
	private readonly ids = new Map<string, number>();
	/** Loaded columns: the postings of ids below `baseCount`. */
	private base: TrigramColumns | null = null;
	private baseCount = 0;
	/** Note ids (from `baseCount` on) holding each trigram key, ascending. */
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
		if (this.base === null && this.holes > 1000 && this.holes > this.ids.size) this.compact();
	}

	/** Forget `path` and every note under it as a folder: they are then unknown, and a search scans them. */
	forget(path: string): void {
		this.remove(path);
		const prefix = `${path}/`;
		// A Map tolerates deletion while iterated: no copy of 50k keys for each edited note.
		for (const known of this.ids.keys()) if (known.startsWith(prefix)) this.remove(known);
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

	/**
	 * Whether a note can satisfy `query` — true for a note the index does not know, which must be
	 * scanned — or null when the query requires nothing. Answers from a bitmap over note ids, so a
	 * word in most notes costs no set of their paths.
	 */
	mayHold(query: TrigramQuery): ((path: string) => boolean) | null {
		const ids = this.evaluate(query);
		if (ids === null) return null;
		const hit = new Uint8Array(this.paths.length);
		for (const id of ids) hit[id] = 1;
		return (path) => {
			const id = this.ids.get(path);
			return id === undefined || hit[id] === 1;
		};
	}

	/**
	 * Note ids (live or not) holding `key`, ascending. The varints are read in one loop into a
	 * typed array sized from the bytes (each id takes at least one) rather than through the
	 * reader one call per id: at 50k notes a word's trigrams are lists of ~40k ids, decoded on
	 * every query.
	 */
	private idsOf(key: number): Int32Array {
		const added = this.postings.get(key);
		const base = this.base;
		const at = base === null ? -1 : find(base.keys, key);
		if (base === null || at < 0) return Int32Array.from(added ?? []);
		const from = base.starts[at]!;
		const end = base.starts[at + 1]!;
		const out = new Int32Array(end - from + (added?.length ?? 0));
		// Held bytes are read in place, [from, end); a reader's range comes as bytes of its own, [0, end - from).
		const postings = base.postings;
		const data = postings instanceof Uint8Array ? postings : postings.read(from, end);
		const held = data === postings;
		const stop = held ? end : end - from;
		let n = 0;
		let id = 0;
		for (let i = held ? from : 0; i < stop;) {
			let byte = data[i++]!;
			let value = byte & 0x7f;
			let scale = 128;
			while (byte >= 0x80) {
				if (i >= stop || scale > 2 ** 49)
					throw new TrigramFormatError('trigram index: a posting list is truncated');
				byte = data[i++]!;
				value += (byte & 0x7f) * scale;
				scale *= 128;
			}
			id += value;
			if (id < this.baseCount) out[n++] = id;
		}
		if (added !== undefined) for (const a of added) out[n++] = a;
		return out.subarray(0, n);
	}

	/**
	 * The note ids that can satisfy `query`, ascending, or null for no condition. Lists stay sorted
	 * arrays and are merged, not put in sets: a word in most notes intersects lists of ~40k ids at
	 * 50k notes, where sets took hundreds of ms per call.
	 */
	private evaluate(query: TrigramQuery): Int32Array | null {
		switch (query.op) {
			case 'any':
				return null;
			case 'tri':
				return this.idsOf(query.key);
			case 'and': {
				let acc: Int32Array | null = null;
				// Rarest first keeps the running intersection small.
				const subs = [...query.subs].sort((a, b) => this.estimate(a) - this.estimate(b));
				for (const sub of subs) {
					// A handful of candidates: the matcher verifies them faster than the larger lists left would narrow them.
					if (acc !== null && acc.length <= FEW_CANDIDATES) break;
					const ids: Int32Array | null =
						acc !== null && sub.op === 'tri' ? this.idsOf(sub.key) : this.evaluate(sub);
					if (ids === null) continue;
					acc = acc === null ? ids : intersectSorted(acc, ids);
					if (acc.length === 0) break;
				}
				return acc;
			}
			case 'or': {
				const parts: (Int32Array | number[])[] = [];
				for (const sub of query.subs) {
					const ids = this.evaluate(sub);
					if (ids === null) return null;
					parts.push(ids);
				}
				return unionSorted(parts);
			}
		}
	}

	/** About how many notes hold a condition (bytes of a loaded posting list stand in for its length). */
	private estimate(query: TrigramQuery): number {
		if (query.op === 'any') return Infinity;
		if (query.op !== 'tri') return this.paths.length;
		const at = this.base === null ? -1 : find(this.base.keys, query.key);
		return (
			(this.postings.get(query.key)?.length ?? 0) +
			(at < 0 ? 0 : this.base!.starts[at + 1]! - this.base!.starts[at]!)
		);
	}

	/** Every key, ascending. */
	private allKeys(): number[] {
		const keys = new Set<number>(this.postings.keys());
		if (this.base !== null) for (const key of this.base.keys) keys.add(key);
		return [...keys].sort((a, b) => a - b);
	}

	/** Renumber the notes densely, dropping holes, with every posting in memory. */
	private compact(): void {
		const remap = this.remap();
		const postings = new Map<number, number[]>();
		for (const key of this.allKeys()) {
			const kept = Array.from(this.idsOf(key), (id) => remap[id]!).filter((id) => id >= 0);
			if (kept.length > 0) postings.set(key, kept);
		}
		this.paths = this.paths.filter((p) => p !== null);
		this.paths.forEach((path, id) => this.ids.set(path!, id));
		this.postings = postings;
		this.base = null;
		this.baseCount = 0;
		this.holes = 0;
	}

	/** Old id → dense id (-1 for holes). */
	private remap(): Int32Array {
		const remap = new Int32Array(this.paths.length).fill(-1);
		let next = 0;
		this.paths.forEach((path, id) => {
			if (path !== null) remap[id] = next++;
		});
		return remap;
	}

	/** The index as columns, holes squeezed out (about 1–2 bytes per posting). */
	columns(): TrigramColumns {
		// Loaded or built in one piece and not changed since: the columns are already this.
		if (this.base !== null && this.holes === 0 && this.postings.size === 0 && this.paths.length === this.baseCount)
			return this.base;
		const base = this.base;
		if (base !== null) this.base = held(base); // every key is read: one read, not one per key
		try {
			return this.columnsNow();
		} finally {
			this.base = base;
		}
	}

	/** `columns` of an index whose postings are held. */
	private columnsNow(): TrigramColumns {
		const remap = this.remap();
		const keys: number[] = [];
		const starts: number[] = [0];
		const out = new VarintWriter();
		for (const key of this.allKeys()) {
			let previous = 0;
			const from = out.length;
			for (const old of this.idsOf(key)) {
				const id = remap[old]!;
				if (id < 0) continue;
				out.uint(id - previous);
				previous = id;
			}
			if (out.length === from) continue;
			keys.push(key);
			starts.push(out.length);
		}
		return {
			paths: this.paths.filter((p) => p !== null),
			keys: Int32Array.from(keys),
			starts: Uint32Array.from(starts),
			postings: out.finish(),
		};
	}

	/** An index over saved columns (kept as they are, decoded per key); throws {@link TrigramFormatError} when they do not fit together. */
	static fromColumns(columns: TrigramColumns): TrigramIndex {
		const { paths, keys, starts, postings } = columns;
		if (starts.length !== keys.length + 1 || starts[0] !== 0 || starts[keys.length] !== postings.length)
			throw new TrigramFormatError('trigram index: columns do not fit together');
		for (let i = 0; i < keys.length; i++) {
			if ((i > 0 && keys[i]! <= keys[i - 1]!) || starts[i + 1]! <= starts[i]!)
				throw new TrigramFormatError('trigram index: keys out of order');
		}
		const index = new TrigramIndex();
		paths.forEach((path, id) => {
			if (typeof path !== 'string' || index.ids.has(path))
				throw new TrigramFormatError(`trigram index: "${String(path)}" twice or not a path`);
			index.paths.push(path);
			index.ids.set(path, id);
		});
		index.base = columns;
		index.baseCount = paths.length;
		return index;
	}

	/** The index as one blob: version, paths, keys, posting lengths (varints), then the postings. */
	serialize(): Uint8Array {
		const c = held(this.columns());
		const out = new VarintWriter();
		out.uint(TRIGRAM_FORMAT_VERSION);
		out.uint(c.paths.length);
		for (const path of c.paths) out.text(path);
		out.uint(c.keys.length);
		for (let i = 0; i < c.keys.length; i++) {
			out.uint(c.keys[i]! >>> 0);
			out.uint(c.starts[i + 1]! - c.starts[i]!);
		}
		out.bytes(c.postings);
		return out.finish();
	}

	/** Read {@link serialize}'s bytes back; throws {@link TrigramFormatError} when they are not a valid index of this version. */
	static deserialize(data: Uint8Array): TrigramIndex {
		const input = new VarintReader(data);
		const version = input.uint();
		if (version !== TRIGRAM_FORMAT_VERSION)
			throw new TrigramFormatError(`trigram index: format ${version}, expected ${TRIGRAM_FORMAT_VERSION}`);
		const paths: string[] = [];
		const count = input.uint();
		for (let id = 0; id < count; id++) paths.push(input.text());
		const n = input.uint();
		const keys = new Int32Array(n);
		const starts = new Uint32Array(n + 1);
		for (let i = 0; i < n; i++) {
			keys[i] = input.uint() | 0;
			starts[i + 1] = starts[i]! + input.uint();
		}
		const postings = input.bytes(starts[n]!);
		if (!input.done()) throw new TrigramFormatError('trigram index: bytes after the end');
		for (let i = 0; i < n; i++) {
			const reader = new VarintReader(postings, starts[i], starts[i + 1]);
			for (let id = reader.uint(); ; id += reader.uint()) {
				if (id >= count) throw new TrigramFormatError('trigram index: a note id out of range');
				if (reader.done()) break;
			}
		}
		return TrigramIndex.fromColumns({ paths, keys, starts, postings });
	}
}
