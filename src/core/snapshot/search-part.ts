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
import type { InvertedIndexState } from '../search/index-state';
import { noteNames, type SearchIndex } from '../search/search-index';
import { compareTerms } from '../search/term-dictionary';
import { drain, WorkMeter } from '../steps';
import { bytesOf } from './bytes';
import { jsonStringsSteps } from './json-steps';
import { RecordText } from './record-text';
import { hasLossyNumber, tagNumbers } from './metadata-codec';
import { lastAtOrBelow, type SectionBytes, type SectionSource } from './part-codec';
import type { CodecHost } from './port';

/** Bumped when what the search part holds changes meaning. */
export const SEARCH_PART_VERSION = 5; // 5: a posting flags a term its note holds only in code, addresses or HTML comments (never a typo correction); 4: emoji and pictographs separate words (`🔡STAR` is the word STAR), abstracts skip lines without words, drawing payloads and base64 data URIs are not indexed; 3: dictionary in sorted blocks, records per note, read lazily (2: image embeds' file names no longer indexed)

/** The search part's sections queries read a term at a time (its postings, most of its bytes): a store may load them after the index is handed out. */
export const PER_TERM_SECTIONS: readonly string[] = ['postDocs', 'postTfs'];

/** Terms per dictionary block. */
export const DICT_BLOCK = 64; // why: one block is ~1 kB of JSON — a lookup parses that, and 210k terms make 3.3k first terms to search.
/** Entries per cached chunk of the term-start column. */
export const START_CHUNK = 4096; // why: one 16 kB part block.
/** Fields a note is indexed by (see fieldLen). */
export const FIELDS = 6;
/** Units of work (see searchSectionsSteps) between two pauses of the save's encoding. */
export const SECTION_STEP = 4096; // why: about a millisecond of merging or copying on a quiet machine, inside a host's slice even on a slow phone.
/** Work units a note's record or names count for, besides its bytes. */
const NOTE_WORK = 16;
/** Bytes encoded count one unit per 2^this. */
const BYTE_WORK_SHIFT = 6;

export { SavedIndexDamaged } from '../search/index-state';

/** The search part's `searchMeta` section. */
export interface SearchMeta {
	skipped: SkippedFile[];
	exclusions: string[];
	/** Notes whose frontmatter holds numbers JSON cannot carry (tagged, see metadata-codec). */
	lossy: number[];
	terms: number;
	docs: number;
	/** Notes whose links field names a note. */
	linkFieldDocs: number[];
}

/** The name tables: alias/title key → notes, lower-case file name → notes (ids ascending), filled a note at a time. */
class NameTables {
	private readonly aliases = new Map<string, number[]>();
	private readonly basenames = new Map<string, number[]>();

	/** Note `d`'s names (notes are added in id order). */
	add(d: number, info: DocInfo): void {
		const names = noteNames(info);
		add(this.basenames, names.basenameKey, d);
		for (const key of names.aliasKeys) add(this.aliases, key, d);
	}

	/** The tables' sections. */
	*sectionsSteps(utf8: CodecHost, meter: WorkMeter): Generator<void, Record<string, SectionBytes>, void> {
		return {
			...(yield* sortedTableSteps('aliasNames', [...this.aliases], utf8, meter)),
			...(yield* sortedTableSteps('baseNames', [...this.basenames], utf8, meter)),
		};
	}
}

/** Note `d` under `key` in `map` (once, ids ascending). */
function add(map: Map<string, number[]>, key: string, d: number): void {
	const list = map.get(key);
	if (!list) map.set(key, [d]);
	else if (list[list.length - 1] !== d) list.push(d);
}

/**
 * A table of keys in string order with a value each, in blocks of DICT_BLOCK (`<name>Text`, each
 * block JSON `[key, value, …]`, found through `<name>Offsets`) and every block's first key
 * (`<name>Firsts`): a lookup reads one block. In steps: the sort, each block's JSON and its bytes
 * are counted as work (the blocks made at once held a main thread 0.1–0.2 s at 50k notes).
 */
function* sortedTableSteps(
	name: string,
	entries: [string, unknown][],
	utf8: CodecHost,
	meter: WorkMeter,
): Generator<void, Record<string, SectionBytes>, void> {
	const order = yield* sortedOrderSteps(
		entries.length,
		(a, b) => compareTerms(entries[a]![0], entries[b]![0]),
		meter,
	);
	const firsts: string[] = [];
	const blocks = new RecordText(Math.ceil(order.length / DICT_BLOCK), utf8);
	for (let at = 0; at < order.length; at += DICT_BLOCK) {
		const block: unknown[] = [];
		for (let i = at; i < Math.min(order.length, at + DICT_BLOCK); i++) block.push(...entries[order[i]!]!);
		firsts.push(entries[order[at]!]![0]);
		const json = JSON.stringify(block);
		blocks.add(json);
		if (meter.add(DICT_BLOCK + (json.length >> BYTE_WORK_SHIFT))) yield;
	}
	return { [`${name}Firsts`]: utf8.encode(JSON.stringify(firsts)), ...blocks.sections(name) };
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

/** The state with term ids renumbered in string order (the dictionary then needs no ids), postings moved with them as sections made when read. */
function* termsInOrderSteps(
	state: InvertedIndexState,
	meter: WorkMeter,
): Generator<
	void,
	{ termList: string[]; termStart: Uint32Array; postDocs: SectionSource; postTfs: SectionSource },
	void
> {
	const { termList, termStart, postDocs, postTfs } = state;
	const order = yield* sortedOrderSteps(termList.length, (a, b) => compareTerms(termList[a]!, termList[b]!), meter);
	const start = new Uint32Array(termList.length + 1);
	const sorted: string[] = [];
	for (let i = 0; i < order.length; i++) {
		const t = order[i]!;
		start[i + 1] = start[i]! + termStart[t + 1]! - termStart[t]!;
		sorted.push(termList[t]!);
		if (meter.add(1)) yield;
	}
	return {
		termList: sorted,
		termStart: start,
		postDocs: inTermOrder(postDocs, termStart, order, start),
		postTfs: inTermOrder(postTfs, termStart, order, start),
	};
}

/**
 * A posting column in sorted term order, made when read from the index's own column (the index's
 * frozen columns are never written once made): a copy of each column was ~46 MB at 50k notes,
 * held beside the index while the part was encoded and written.
 */
function inTermOrder(
	column: Uint32Array,
	termStart: Uint32Array,
	order: Uint32Array,
	start: Uint32Array,
): SectionSource {
	return {
		length: column.length * 4,
		fill(into, from) {
			if (from % 4 !== 0 || into.length % 4 !== 0)
				throw new RangeError('a posting column is read in whole postings');
			const out =
				into.byteOffset % 4 === 0
					? new Uint32Array(into.buffer, into.byteOffset, into.length / 4)
					: new Uint32Array(into.length / 4);
			let p = from / 4;
			const end = p + out.length;
			for (let i = lastAtOrBelow(start, order.length, p); p < end && i < order.length; i++) {
				const t = order[i]!;
				const n = Math.min(start[i + 1]!, end) - p;
				if (n <= 0) continue;
				const at = termStart[t]! + p - start[i]!;
				out.set(column.subarray(at, at + n), p - from / 4);
				p += n;
			}
			if (out.buffer !== into.buffer) into.set(new Uint8Array(out.buffer));
		},
	};
}

/** The sections of a built index's part. */
export function searchSections(si: SearchIndex, utf8: CodecHost): Record<string, Uint8Array> {
	return drain(searchSectionsSteps(si, utf8));
}

/** Bytes of a made section filled between two pauses of `searchSectionsSteps`. */
const FILL_STEP_BYTES = 4096; // why: 1,024 postings, a small share of a step: one fill overshoots a step by that at most.

/** `searchSourcesSteps` with every section held whole (the plugin's stores keep the bytes; a made section is filled in steps, a posting a unit). */
export function* searchSectionsSteps(
	si: SearchIndex,
	utf8: CodecHost,
	meter = new WorkMeter(SECTION_STEP),
): Generator<void, Record<string, Uint8Array>, void> {
	const sources = yield* searchSourcesSteps(si, utf8, meter);
	const out: Record<string, Uint8Array> = {};
	for (const [name, section] of Object.entries(sources)) {
		if (section instanceof Uint8Array) {
			out[name] = section;
			continue;
		}
		const bytes = new Uint8Array(section.length);
		for (let from = 0; from < bytes.length; from += FILL_STEP_BYTES) {
			const piece = bytes.subarray(from, Math.min(bytes.length, from + FILL_STEP_BYTES));
			section.fill(piece, from);
			if (meter.add(piece.length >> 2)) yield;
		}
		out[name] = bytes;
	}
	return out;
}

/**
 * The sections of a built index's part in steps, pausing after about `meter.step` units of work (a
 * term placed, an element merged, a note, 64 bytes encoded): the plugin runs them in time slices
 * on Obsidian's main thread, the CLI drains them at once; the bytes are the same. The index must
 * not change until they return (its export compacts it in place). The posting columns are made
 * when read (SectionSource) from the index's frozen columns, which no later change writes into.
 */
export function* searchSourcesSteps(
	si: SearchIndex,
	utf8: CodecHost,
	meter = new WorkMeter(SECTION_STEP),
): Generator<void, Record<string, SectionBytes>, void> {
	const state = yield* si.index.exportStateSteps();
	const sorted = yield* termsInOrderSteps(state, meter);
	const lossy: number[] = [];
	const linkFieldDocs: number[] = [];
	const records = new RecordText(state.docs.length, utf8);
	const names = new NameTables();
	for (let d = 0; d < state.docs.length; d++) {
		// Read once for everything a note gives the part, and dropped: see DocTable.readOnce.
		const info = state.docs.info(d);
		names.add(d, info);
		if (linksFieldNames(info.frontmatter, si.settings.linksKey).length > 0) linkFieldDocs.push(d);
		const record: Partial<DocInfo> = { ...info, path: undefined };
		if (hasLossyNumber(info.frontmatter)) {
			lossy.push(d);
			record.frontmatter = tagNumbers(info.frontmatter) as DocInfo['frontmatter'];
		}
		const json = JSON.stringify(record);
		records.add(json);
		if (meter.add(2 * NOTE_WORK + (json.length >> BYTE_WORK_SHIFT))) yield; // its record read (decoded, when saved), its names, its JSON
	}
	const meta: SearchMeta = {
		skipped: si.skipped,
		exclusions: si.exclusions,
		lossy,
		terms: sorted.termList.length,
		docs: state.docs.length,
		linkFieldDocs,
	};
	const docPaths = yield* jsonStringsSteps(
		Array.from({ length: state.docs.length }, (_, d) => state.docs.path(d)),
		utf8,
		meter,
	);
	const firsts: string[] = [];
	const blocks = new RecordText(Math.ceil(sorted.termList.length / DICT_BLOCK), utf8);
	for (let at = 0; at < sorted.termList.length; at += DICT_BLOCK) {
		firsts.push(sorted.termList[at]!);
		const json = JSON.stringify(sorted.termList.slice(at, at + DICT_BLOCK));
		blocks.add(json);
		if (meter.add(DICT_BLOCK + (json.length >> BYTE_WORK_SHIFT))) yield;
	}
	const dict = { dictFirsts: utf8.encode(JSON.stringify(firsts)), ...blocks.sections('dict') };
	return {
		searchMeta: utf8.encode(JSON.stringify(meta)),
		docPaths,
		...(yield* names.sectionsSteps(utf8, meter)),
		...records.sections('doc'),
		...dict,
		termStart: bytesOf(sorted.termStart),
		postDocs: sorted.postDocs,
		postTfs: sorted.postTfs,
		fieldLen: bytesOf(state.fieldLen),
	};
}
