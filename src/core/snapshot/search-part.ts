/**
 * The ranked-search index ⇄ the sections of its saved part (part-codec.ts), laid out so a warm
 * search reads only what its query needs:
 * - the dictionary as sorted terms in blocks of DICT_BLOCK (each block JSON `[term, id, …]`) with
 *   every block's first term, so a lookup reads one block;
 * - the postings as CSR columns, read one term's slice at a time;
 * - each note's record as JSON of its own (found through an offset column), decoded when a hit
 *   or a filter reads it; paths, name keys and the notes holding the links field as small
 *   sections of their own.
 * Side notes (keyword index, synonyms) are not saved: they are read fresh each time.
 *
 * Every read is checked (its blocks' checksums, then that it fits the rest); a read that fails
 * throws SavedIndexDamaged, and the engine rebuilds the index and answers again.
 */
import type { SkippedFile } from '../contract';
import { linksFieldNames } from '../note-info';
import type { DocInfo } from '../search/extract';
import type { PostingColumns, SavedPostings } from '../search/frozen-postings';
import { SavedIndexDamaged, type InvertedIndexState, type SavedIndexState } from '../search/index-state';
import { noteNames, SearchIndex } from '../search/search-index';
import type { SearchSettings } from '../search/settings';
import { compareTerms, type SavedTerms } from '../search/term-dictionary';
import { drain, WorkMeter } from '../steps';
import { bytesOf } from './bytes';
import { jsonArraySteps } from './json-steps';
import { hasLossyNumber, tagNumbers, untag } from './metadata-codec';
import type { DecodedPart } from './part-codec';
import type { CodecHost } from './port';

/** Bumped when what the search part holds changes meaning. */
export const SEARCH_PART_VERSION = 5; // 5: a posting flags a term its note holds only in code, addresses or HTML comments (never a typo correction); 4: emoji and pictographs separate words (`🔡STAR` is the word STAR), abstracts skip lines without words, drawing payloads and base64 data URIs are not indexed; 3: dictionary in sorted blocks, records per note, read lazily (2: image embeds' file names no longer indexed)

/** Terms per dictionary block. */
const DICT_BLOCK = 64; // why: one block is ~1 kB of JSON — a lookup parses that, and 210k terms make 3.3k first terms to search.
/** Entries per cached chunk of the term-start column. */
const START_CHUNK = 4096; // why: one 16 kB part block.
const FIELDS = 6;
/** Units of work (see searchSectionsSteps) between two pauses of the save's encoding. */
export const SECTION_STEP = 4096; // why: about a millisecond of merging or copying on a quiet machine, inside a host's slice even on a slow phone.
/** Work units a note's record or names count for, besides its bytes. */
const NOTE_WORK = 16;
/** Bytes encoded count one unit per 2^this. */
const BYTE_WORK_SHIFT = 6;

export { SavedIndexDamaged } from '../search/index-state';

interface SearchMeta {
	skipped: SkippedFile[];
	exclusions: string[];
	/** Notes whose frontmatter holds numbers JSON cannot carry (tagged, see metadata-codec). */
	lossy: number[];
	terms: number;
	docs: number;
	/** Notes whose links field names a note. */
	linkFieldDocs: number[];
}

/**
 * A table of keys in string order with a value each, in blocks of DICT_BLOCK (`<name>Text`, each
 * block JSON `[key, value, …]`, found through `<name>Offsets`) and every block's first key
 * (`<name>Firsts`): a lookup reads one block.
 */
function sortedTableSections(name: string, entries: [string, unknown][], utf8: CodecHost): Record<string, Uint8Array> {
	entries.sort((a, b) => compareTerms(a[0], b[0]));
	const firsts: string[] = [];
	const blocks: string[] = [];
	for (let at = 0; at < entries.length; at += DICT_BLOCK) {
		firsts.push(entries[at]![0]);
		blocks.push(JSON.stringify(entries.slice(at, at + DICT_BLOCK).flat(1)));
	}
	return { [`${name}Firsts`]: utf8.encode(JSON.stringify(firsts)), ...recordSections(name, blocks, utf8) };
}

/** The name tables: alias/title key → notes, lower-case file name → notes (ids ascending). */
function* nameSectionsSteps(
	docs: readonly DocInfo[],
	utf8: CodecHost,
	meter: WorkMeter,
): Generator<void, Record<string, Uint8Array>, void> {
	const aliases = new Map<string, number[]>();
	const basenames = new Map<string, number[]>();
	const add = (map: Map<string, number[]>, key: string, d: number): void => {
		const list = map.get(key);
		if (!list) map.set(key, [d]);
		else if (list[list.length - 1] !== d) list.push(d);
	};
	for (let d = 0; d < docs.length; d++) {
		const names = noteNames(docs[d]!);
		add(basenames, names.basenameKey, d);
		for (const key of names.aliasKeys) add(aliases, key, d);
		if (meter.add(NOTE_WORK)) yield;
	}
	return {
		...(yield* sortedTableSteps('aliasNames', [...aliases], utf8, meter)),
		...(yield* sortedTableSteps('baseNames', [...basenames], utf8, meter)),
	};
}

/** A table of keys in string order (see sortedTableSections), in steps. */
function* sortedTableSteps(
	name: string,
	entries: [string, unknown][],
	utf8: CodecHost,
	meter: WorkMeter,
): Generator<void, Record<string, Uint8Array>, void> {
	const order = yield* sortedOrderSteps(
		entries.length,
		(a, b) => compareTerms(entries[a]![0], entries[b]![0]),
		meter,
	);
	const sorted = Array.from(order, (i) => entries[i]!);
	yield;
	return sortedTableSections(name, sorted, utf8);
}

/** Strings stored one after another (`<name>Text`) with their byte offsets (`<name>Offsets`). */
function recordSections(name: string, records: readonly string[], utf8: CodecHost): Record<string, Uint8Array> {
	return drain(recordSectionsSteps(name, records, utf8, new WorkMeter(Infinity)));
}

/** `recordSections` in steps: each record's bytes counted as work. */
function* recordSectionsSteps(
	name: string,
	records: readonly string[],
	utf8: CodecHost,
	meter: WorkMeter,
): Generator<void, Record<string, Uint8Array>, void> {
	const encoded: Uint8Array[] = [];
	const offsets = new Uint32Array(records.length + 1);
	for (let i = 0; i < records.length; i++) {
		const bytes = utf8.encode(records[i]!);
		encoded.push(bytes);
		offsets[i + 1] = offsets[i]! + bytes.length;
		if (meter.add(1 + (bytes.length >> BYTE_WORK_SHIFT))) yield;
	}
	const text = new Uint8Array(offsets[encoded.length]!);
	for (let i = 0; i < encoded.length; i++) {
		text.set(encoded[i]!, offsets[i]);
		if (meter.add(1 + (encoded[i]!.length >> BYTE_WORK_SHIFT))) yield;
	}
	return { [`${name}Text`]: text, [`${name}Offsets`]: bytesOf(offsets) };
}

/**
 * The positions 0…n-1 in the order `compare` gives (a stable bottom-up merge sort), in steps: each
 * element merged is one unit of work. A comparator sort of ~200k terms held a main thread for seconds.
 */
function* sortedOrderSteps(
	n: number,
	compare: (a: number, b: number) => number,
	meter: WorkMeter,
): Generator<void, Uint32Array, void> {
	let from = new Uint32Array(n);
	let to = new Uint32Array(n);
	for (let i = 0; i < n; i++) from[i] = i;
	for (let width = 1; width < n; width *= 2) {
		for (let lo = 0; lo < n; lo += 2 * width) {
			const mid = Math.min(lo + width, n);
			const hi = Math.min(lo + 2 * width, n);
			let a = lo;
			let b = mid;
			for (let w = lo; w < hi; w++) {
				if (a < mid && (b >= hi || compare(from[a]!, from[b]!) <= 0)) to[w] = from[a++]!;
				else to[w] = from[b++]!;
				if (meter.add(1)) yield;
			}
		}
		[from, to] = [to, from];
	}
	return from;
}

/** The state with term ids renumbered in string order (the dictionary then needs no ids), postings moved with them. */
function* termsInOrderSteps(state: InvertedIndexState, meter: WorkMeter): Generator<void, InvertedIndexState, void> {
	const { termList, termStart, postDocs, postTfs } = state;
	const order = yield* sortedOrderSteps(termList.length, (a, b) => compareTerms(termList[a]!, termList[b]!), meter);
	const start = new Uint32Array(termList.length + 1);
	const docs = new Uint32Array(postDocs.length);
	const tfs = new Uint32Array(postTfs.length);
	const sorted: string[] = [];
	for (let i = 0; i < order.length; i++) {
		const t = order[i]!;
		const from = termStart[t]!;
		const to = termStart[t + 1]!;
		docs.set(postDocs.subarray(from, to), start[i]);
		tfs.set(postTfs.subarray(from, to), start[i]);
		start[i + 1] = start[i]! + to - from;
		sorted.push(termList[t]!);
		if (meter.add(1 + to - from)) yield;
	}
	return { ...state, termList: sorted, termStart: start, postDocs: docs, postTfs: tfs };
}

/** The sections of a built index's part. */
export function searchSections(si: SearchIndex, utf8: CodecHost): Record<string, Uint8Array> {
	return drain(searchSectionsSteps(si, utf8));
}

/**
 * `searchSections` in steps, pausing after about `meter.step` units of work (a term or posting
 * moved, an element merged, a note, 64 bytes encoded): the plugin runs them in time slices on
 * Obsidian's main thread, the CLI drains them at once; the bytes are the same. The index must not
 * change until they return (its export compacts it in place).
 */
export function* searchSectionsSteps(
	si: SearchIndex,
	utf8: CodecHost,
	meter = new WorkMeter(SECTION_STEP),
): Generator<void, Record<string, Uint8Array>, void> {
	const state = yield* termsInOrderSteps(yield* si.index.exportStateSteps(), meter);
	const lossy: number[] = [];
	const linkFieldDocs: number[] = [];
	const records: string[] = [];
	for (let d = 0; d < state.docs.length; d++) {
		const info = state.docs[d]!;
		if (linksFieldNames(info.frontmatter, si.settings.linksKey).length > 0) linkFieldDocs.push(d);
		const record: Partial<DocInfo> = { ...info, path: undefined };
		if (hasLossyNumber(info.frontmatter)) {
			lossy.push(d);
			record.frontmatter = tagNumbers(info.frontmatter) as DocInfo['frontmatter'];
		}
		const json = JSON.stringify(record);
		records.push(json);
		if (meter.add(NOTE_WORK + (json.length >> BYTE_WORK_SHIFT))) yield;
	}
	const meta: SearchMeta = {
		skipped: si.skipped,
		exclusions: si.exclusions,
		lossy,
		terms: state.termList.length,
		docs: state.docs.length,
		linkFieldDocs,
	};
	const docPaths = utf8.encode(JSON.stringify(state.docs.map((info) => info.path)));
	yield;
	const names = yield* nameSectionsSteps(state.docs, utf8, meter);
	const docSections = yield* recordSectionsSteps('doc', records, utf8, meter);
	const firsts: string[] = [];
	const blocks: string[] = [];
	for (let at = 0; at < state.termList.length; at += DICT_BLOCK) {
		firsts.push(state.termList[at]!);
		blocks.push(JSON.stringify(state.termList.slice(at, at + DICT_BLOCK)));
		if (meter.add(DICT_BLOCK)) yield;
	}
	const dict = {
		dictFirsts: utf8.encode(JSON.stringify(firsts)),
		...(yield* recordSectionsSteps('dict', blocks, utf8, meter)),
	};
	return {
		searchMeta: utf8.encode(JSON.stringify(meta)),
		docPaths,
		...names,
		...docSections,
		...dict,
		termStart: bytesOf(state.termStart),
		postDocs: bytesOf(state.postDocs),
		postTfs: bytesOf(state.postTfs),
		fieldLen: bytesOf(state.fieldLen),
	};
}

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
		if (error instanceof SavedIndexDamaged) throw error;
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
		columns: (): PostingColumns => {
			const columns = {
				termStart: reader.column('termStart'),
				postDocs: reader.column('postDocs'),
				postTfs: reader.column('postTfs'),
			};
			for (let i = 0; i < columns.postDocs.length; i++)
				if (columns.postDocs[i]! >= docs) throw new SavedIndexDamaged('search part: a posting names no note');
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
		firsts,
		block: (k) => terms(k).flatMap((term, i) => [term, k * DICT_BLOCK + i]),
		decodeAll: () => {
			const list: string[] = [];
			for (let k = 0; k < firsts.length; k++) for (const term of terms(k)) list.push(term);
			return list;
		},
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
		if (error instanceof SavedIndexDamaged) throw error;
		throw new SavedIndexDamaged(
			`search part: docPaths unreadable (${error instanceof Error ? error.message : String(error)})`,
		);
	}
	yield;
	return restoredIndex(part, settings, utf8, paths);
}

/** The index a part's sections describe, read lazily; throws SnapshotFormatError when what it reads up front does not fit together. */
export function restoreSearchIndex(part: DecodedPart, settings: SearchSettings, utf8: CodecHost): SearchIndex {
	return drain(restoreSearchIndexSteps(part, settings, utf8));
}

/** `restoreSearchIndex` once the notes' paths are parsed (null: the part has none). */
function restoredIndex(part: DecodedPart, settings: SearchSettings, utf8: CodecHost, paths: unknown): SearchIndex {
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
	const si = new SearchIndex(settings, state);
	si.skipped.push(...meta.skipped);
	si.exclusions.push(...meta.exclusions);
	return si;
}
