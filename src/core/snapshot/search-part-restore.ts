/**
 * Reading a saved search part back into a SearchIndex (the layout is in search-part.ts): the
 * upfront sections at once, the dictionary blocks, postings and note records lazily as queries
 * read them. Every read is checked; a read that fails throws SavedIndexDamaged.
 */
import type { DocInfo } from '../search/extract';
import type { PostingColumns, SavedPostings } from '../search/frozen-postings';
import { SavedIndexDamaged, SavedIndexPending, type SavedIndexState } from '../search/index-state';
import { InvertedIndex } from '../search/inverted-index';
import { SearchIndex } from '../search/search-index';
import { resolveSearchSettings, type SearchSettings } from '../search/settings';
import type { SavedTerms } from '../search/term-dictionary';
import { drain } from '../steps';
import { jsonArraySteps } from './json-steps';
import { untag } from './metadata-codec';
import type { DecodedPart } from './part-codec';
import type { CodecHost } from './port';
import { DICT_BLOCK, FIELDS, START_CHUNK, type SearchMeta } from './search-part';

/** Bytes of a column copied out between two pauses of `columnSteps`. */
const COLUMN_STEP_BYTES = 1 << 20; // why: a saved store's record (idb-store.ts): a view, not a join; ~1 ms of copy and check.
/** Saved postings checked between two pauses of `columnsSteps`. */
const CHECK_STEP_POSTINGS = 1 << 18; // why: measured up to ~60 ns a posting on the plugin's main thread at 50k notes (a cold read of ~120 MB): ~15 ms a step; the 30M in one go were most of a re-save's longest block.

/** A Uint32Array over a section's bytes (4-aligned by the part codec, so no copy). */
function u32(bytes: Uint8Array): Uint32Array {
	if (bytes.length % 4 !== 0 || bytes.byteOffset % 4 !== 0)
		throw new SavedIndexDamaged('search part: a column is not whole');
	return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
}

/** Run a lazy read; any failure (a block's check, a record that does not parse or fit) becomes SavedIndexDamaged. */
function guarded<T>(what: string, read: () => T): T {
	try {
		return read();
	} catch (error) {
		if (error instanceof SavedIndexDamaged || error instanceof SavedIndexPending) throw error;
		throw new SavedIndexDamaged(
			`search part: ${what} unreadable (${error instanceof Error ? error.message : String(error)})`,
		);
	}
}

/** Reads of one part (see the module comment). */
class PartReader {
	private readonly startChunks = new Map<number, Uint32Array>();

	constructor(
		readonly part: DecodedPart,
		private readonly utf8: CodecHost,
	) {}

	/** A whole section as JSON. */
	json<T>(name: string): T {
		return guarded(name, () => {
			const bytes = this.part.section(name);
			return JSON.parse(this.utf8.decode(bytes, 0, bytes.length)) as T;
		});
	}

	/** A whole u32 section. */
	column(name: string): Uint32Array {
		return guarded(name, () => u32(this.part.section(name)));
	}

	/**
	 * `column` in steps: copied out a range at a time ({@link COLUMN_STEP_BYTES}, its blocks
	 * checked as read) — a whole read of a saved store's section joins its records in one copy
	 * (the postings at 50k notes: ~120 MB, a block of ~0.1 s).
	 */
	*columnSteps(name: string): Generator<void, Uint32Array, void> {
		const length = this.part.sectionLength(name);
		if (length % 4 !== 0) throw new SavedIndexDamaged('search part: a column is not whole');
		const out = new Uint32Array(length / 4);
		const bytes = new Uint8Array(out.buffer);
		// A range over two of a store's records is copied: into one scratch, not a fresh MB a step.
		const scratch = new Uint8Array(COLUMN_STEP_BYTES + 2 * this.part.blockBytes);
		for (let from = 0; from < length; from += COLUMN_STEP_BYTES) {
			const to = Math.min(length, from + COLUMN_STEP_BYTES);
			bytes.set(
				guarded(name, () => this.part.range(name, from, to, scratch)),
				from,
			);
			yield;
		}
		return out;
	}

	/** Record `i` of `<name>Text` as JSON, through the offsets column `offsets`. */
	record<T>(name: string, offsets: Uint32Array, i: number): T {
		return guarded(name, () => {
			const from = offsets[i]!;
			const to = offsets[i + 1]!;
			const bytes = this.part.range(`${name}Text`, from, to);
			return JSON.parse(this.utf8.decode(bytes, 0, bytes.length)) as T;
		});
	}

	/** Entry `i` of the term-start column, read a chunk at a time. */
	termStart(i: number): number {
		const chunk = Math.floor(i / START_CHUNK);
		let values = this.startChunks.get(chunk);
		if (values === undefined) {
			const length = this.part.sectionLength('termStart');
			values = guarded('termStart', () =>
				u32(
					this.part.range(
						'termStart',
						chunk * START_CHUNK * 4,
						Math.min(length, (chunk + 1) * START_CHUNK * 4),
					),
				),
			);
			this.startChunks.set(chunk, values);
		}
		return values[i - chunk * START_CHUNK]!;
	}

	/** Elements [from, to) of a u32 section. */
	u32Range(name: string, from: number, to: number): Uint32Array {
		return guarded(name, () => u32(this.part.range(name, from * 4, to * 4)));
	}
}

/** Whether a note id of `ids[from, to)` is not below `docs`: a plain function, kept out of the generator, which the engine optimizes less. */
function namesNoNote(ids: Uint32Array, from: number, to: number, docs: number): boolean {
	for (let i = from; i < to; i++) if (ids[i]! >= docs) return true;
	return false;
}

/** The saved postings of `reader`'s part over `docs` notes. */
function savedPostings(reader: PartReader, terms: number, docs: number): SavedPostings {
	const total = reader.termStart(terms);
	const span = (t: number): [number, number] => {
		const from = reader.termStart(t);
		const to = reader.termStart(t + 1);
		if (from > to || to > total) throw new SavedIndexDamaged('search part: postings out of order');
		return [from, to];
	};
	return {
		terms,
		total,
		count: (t) => {
			const [from, to] = span(t);
			return to - from;
		},
		slice: (t) => {
			const [from, to] = span(t);
			const ids = reader.u32Range('postDocs', from, to);
			for (let i = 0; i < ids.length; i++)
				if (ids[i]! >= docs) throw new SavedIndexDamaged('search part: a posting names no note');
			return [ids, reader.u32Range('postTfs', from, to)];
		},
		*columnsSteps(): Generator<void, PostingColumns, void> {
			const columns = {
				termStart: yield* reader.columnSteps('termStart'),
				postDocs: yield* reader.columnSteps('postDocs'),
				postTfs: yield* reader.columnSteps('postTfs'),
			};
			const ids = columns.postDocs;
			for (let from = 0; from < ids.length; from += CHECK_STEP_POSTINGS) {
				if (namesNoNote(ids, from, Math.min(ids.length, from + CHECK_STEP_POSTINGS), docs))
					throw new SavedIndexDamaged('search part: a posting names no note');
				yield;
			}
			return columns;
		},
	};
}

/** A saved sorted table (sortedTableSections): its first keys and a reader of its blocks. */
function sortedTable(reader: PartReader, name: string): { firsts: string[]; block: (k: number) => unknown[] } {
	const firsts = reader.json<string[]>(`${name}Firsts`);
	const offsets = reader.column(`${name}Offsets`);
	if (!Array.isArray(firsts) || offsets.length !== firsts.length + 1)
		throw new SavedIndexDamaged(`search part: ${name} does not fit`);
	return { firsts, block: (k) => reader.record<unknown[]>(name, offsets, k) };
}

/** The value under `key` in a saved sorted table, or undefined. */
function lookUp(table: { firsts: string[]; block: (k: number) => unknown[] }, key: string): unknown {
	let lo = 0;
	let hi = table.firsts.length;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		if (table.firsts[mid]! <= key) lo = mid + 1;
		else hi = mid;
	}
	if (lo === 0) return undefined;
	const block = table.block(lo - 1);
	for (let i = 0; i < block.length; i += 2) if (block[i] === key) return block[i + 1];
	return undefined;
}

/** The saved dictionary of `reader`'s part. */
function savedTerms(reader: PartReader, count: number): SavedTerms {
	const table = sortedTable(reader, 'dict');
	const { firsts } = table;
	if (firsts.length !== Math.ceil(count / DICT_BLOCK))
		throw new SavedIndexDamaged('search part: the dictionary does not fit');
	const terms = (k: number): string[] => {
		const block = table.block(k);
		if (!Array.isArray(block) || block.length !== Math.min(DICT_BLOCK, count - k * DICT_BLOCK))
			throw new SavedIndexDamaged('search part: a dictionary block does not fit');
		return block as string[];
	};
	return {
		count,
		blockTerms: DICT_BLOCK,
		firsts,
		block: terms,
	};
}

/** The sections `restoreSearchIndex` reads whole up front (the others are read as queries ask). */
const UPFRONT_SECTIONS = ['searchMeta', 'docPaths', 'docOffsets', 'fieldLen', 'dictFirsts', 'dictOffsets'];

/** `restoreSearchIndex` in steps: the sections it reads up front are checked a few blocks at a time first. */
export function* restoreSearchIndexSteps(
	part: DecodedPart,
	settings: SearchSettings,
	utf8: CodecHost,
): Generator<void, SearchIndex, void> {
	for (const name of UPFRONT_SECTIONS) {
		if (!part.has(name)) break; // restoredIndex says which is missing
		yield* part.sectionSteps(name);
		yield;
	}
	// The notes' paths (~3 MB of JSON at 50k notes) are parsed a piece per step.
	let paths: unknown;
	try {
		paths = part.has('docPaths') ? yield* jsonArraySteps(part.section('docPaths'), utf8) : null;
	} catch (error) {
		if (error instanceof SavedIndexDamaged || error instanceof SavedIndexPending) throw error;
		throw new SavedIndexDamaged(
			`search part: docPaths unreadable (${error instanceof Error ? error.message : String(error)})`,
		);
	}
	yield;
	return yield* restoredIndexSteps(part, settings, utf8, paths);
}

/** The index a part's sections describe, read lazily; throws SnapshotFormatError when what it reads up front does not fit together. */
export function restoreSearchIndex(part: DecodedPart, settings: SearchSettings, utf8: CodecHost): SearchIndex {
	return drain(restoreSearchIndexSteps(part, settings, utf8));
}

/** `restoreSearchIndex` once the notes' paths are parsed (null: the part has none); the inverted index comes in steps. */
function* restoredIndexSteps(
	part: DecodedPart,
	settings: SearchSettings,
	utf8: CodecHost,
	paths: unknown,
): Generator<void, SearchIndex, void> {
	const reader = new PartReader(part, utf8);
	const meta = reader.json<SearchMeta>('searchMeta');
	const n = meta.docs;
	if (paths === null) reader.json('docPaths'); // says it is missing
	const docOffsets = reader.column('docOffsets');
	const fieldLen = reader.column('fieldLen');
	if (
		!Array.isArray(paths) ||
		paths.length !== n ||
		paths.some((p) => typeof p !== 'string') ||
		docOffsets.length !== n + 1 ||
		fieldLen.length !== n * FIELDS ||
		part.sectionLength('termStart') !== (meta.terms + 1) * 4
	) {
		throw new SavedIndexDamaged('search part: columns do not fit together');
	}
	const docPaths = paths as string[];
	part.lendParsed('docPaths', docPaths); // the part's own note list is most often the same
	const lossy = new Set(meta.lossy);
	const tables: Record<string, ReturnType<typeof sortedTable>> = {};
	const state: SavedIndexState = {
		terms: savedTerms(reader, meta.terms),
		postings: savedPostings(reader, meta.terms, n),
		docs: {
			count: n,
			path: (d) => docPaths[d]!,
			record: (d) => {
				const info = reader.record<DocInfo>('doc', docOffsets, d);
				info.path = docPaths[d]!;
				if (lossy.has(d)) info.frontmatter = untag(info.frontmatter) as DocInfo['frontmatter'];
				return info;
			},
		},
		fieldLen,
		namedNotes: (kind, key) => {
			const name = kind === 'alias' ? 'aliasNames' : 'baseNames';
			const table = (tables[name] ??= sortedTable(reader, name));
			const ids = guarded(name, () => lookUp(table, key));
			if (ids === undefined) return [];
			if (!Array.isArray(ids) || ids.some((d) => typeof d !== 'number' || d >= n))
				throw new SavedIndexDamaged(`search part: ${name} names no note`);
			return ids as number[];
		},
		linkFieldDocs: () => meta.linkFieldDocs.filter((d) => d < n),
	};
	if (
		part.sectionLength('postDocs') !== state.postings.total * 4 ||
		part.sectionLength('postTfs') !== state.postings.total * 4
	)
		throw new SavedIndexDamaged('search part: columns do not fit together');
	const resolved = resolveSearchSettings(settings);
	const si = new SearchIndex(resolved, state, yield* InvertedIndex.fromSavedSteps(resolved, state));
	si.skipped.push(...meta.skipped);
	si.exclusions.push(...meta.exclusions);
	return si;
}
