/**
 * The inverted index as plain columns, for persisting it: the term dictionary, the frozen CSR
 * postings and one record per live note, with note ids dense (0…n-1) and no term that no note holds.
 */
import type { ExportDocs, SavedDocs } from './doc-table';
import type { DocInfo } from './extract';
import type { SavedPostings } from './frozen-postings';
import type { SavedTerms } from './term-dictionary';
import { FIELD_NAMES } from './settings';
import { drain } from '../steps';

/** A compacted inverted index as columns (see the module comment). */
export interface InvertedIndexState {
	termList: string[];
	/** Postings of term t are [termStart[t], termStart[t+1]). */
	termStart: Uint32Array;
	postDocs: Uint32Array;
	postTfs: Uint32Array;
	docs: StateDocs;
	/** Field lengths in terms, FIELD_COUNT per note. */
	fieldLen: Uint32Array;
}

/** The notes of an exported state by dense id, each record read as asked (a saved one decoded at each read, see `DocTable.readOnce`). */
export interface StateDocs {
	readonly length: number;
	/** Note `d`'s record. */
	info(d: number): DocInfo;
	/** Note `d`'s path. */
	path(d: number): string;
}

/** Postings (and notes) `exportDenseSteps` handles before it may pause. */
const EXPORT_STEP = 16_384; // why: ~1 ms of copying on a quiet machine, well inside a host's slice.

/** The columns of a compacted index with holes (removed notes, unused terms) squeezed out. */
export function exportDense(raw: DenseInput): InvertedIndexState {
	return drain(exportDenseSteps(raw));
}

/** What `exportDense` squeezes: a compacted index's columns, removed notes as null. */
export interface DenseInput {
	termList: readonly string[];
	termStart: Uint32Array;
	postDocs: Uint32Array;
	postTfs: Uint32Array;
	docs: ExportDocs;
	fieldLen: Uint32Array;
}

/** `exportDense` as steps: it pauses (yields) after about EXPORT_STEP postings or notes. */
export function* exportDenseSteps(raw: DenseInput): Generator<void, InvertedIndexState, void> {
	let work = 0;
	const fields = FIELD_NAMES.length;
	const remap = new Int32Array(raw.docs.length).fill(-1);
	const ids: number[] = [];
	for (let d = 0; d < raw.docs.length; d++) {
		if (!raw.docs.live(d)) continue;
		remap[d] = ids.length;
		ids.push(d);
	}
	const docs: StateDocs = {
		length: ids.length,
		info: (d) => raw.docs.info(ids[d]!),
		path: (d) => raw.docs.path(ids[d]!),
	};
	yield;
	const fieldLen = new Uint32Array(docs.length * fields);
	for (let d = 0; d < raw.docs.length; d++) {
		if (remap[d]! >= 0) fieldLen.set(raw.fieldLen.subarray(d * fields, (d + 1) * fields), remap[d]! * fields);
		if (++work >= EXPORT_STEP) {
			work = 0;
			yield;
		}
	}
	// No hole to squeeze (a fresh build): the columns as they are, not a copy of every posting
	// (~90 MB at 50k notes, held beside the index while a save encodes it).
	if (docs.length === raw.docs.length && withoutHoles(raw))
		return {
			termList: raw.termList.slice(),
			termStart: raw.termStart,
			postDocs: raw.postDocs,
			postTfs: raw.postTfs,
			docs,
			fieldLen,
		};
	const termList: string[] = [];
	const starts: number[] = [0];
	const postDocs = new Uint32Array(raw.postDocs.length);
	const postTfs = new Uint32Array(raw.postTfs.length);
	let w = 0;
	const terms = Math.min(raw.termList.length, raw.termStart.length - 1);
	for (let t = 0; t < terms; t++) {
		const from = w;
		for (let i = raw.termStart[t]!; i < raw.termStart[t + 1]!; i++) {
			const d = remap[raw.postDocs[i]!]!;
			if (d < 0) continue;
			postDocs[w] = d;
			postTfs[w] = raw.postTfs[i]!;
			w++;
		}
		work += raw.termStart[t + 1]! - raw.termStart[t]! + 1;
		if (work >= EXPORT_STEP) {
			work = 0;
			yield;
		}
		if (w === from) continue;
		termList.push(raw.termList[t]!);
		starts.push(w);
	}
	return {
		termList,
		termStart: Uint32Array.from(starts),
		postDocs: w === postDocs.length ? postDocs : postDocs.slice(0, w),
		postTfs: w === postTfs.length ? postTfs : postTfs.slice(0, w),
		docs,
		fieldLen,
	};
}

/** Whether the columns cover every term with at least one posting each, and nothing beyond. */
function withoutHoles(raw: DenseInput): boolean {
	const terms = raw.termList.length;
	if (raw.termStart.length !== terms + 1 || raw.termStart[terms] !== raw.postDocs.length) return false;
	if (raw.postTfs.length !== raw.postDocs.length) return false;
	for (let t = 0; t < terms; t++) if (raw.termStart[t + 1]! <= raw.termStart[t]!) return false;
	return raw.termStart[0] === 0;
}

/** A note's name keys: `canonicalKey` of its title, file name (when it differs) and aliases, and its lower-case file name. */
export interface NoteNames {
	aliasKeys: string[];
	basenameKey: string;
}

/** A saved index read as queries ask (search-part.ts): dictionary, postings and records per term and per note. */
export interface SavedIndexState {
	terms: SavedTerms;
	postings: SavedPostings;
	docs: SavedDocs;
	/** Field lengths in terms, FIELD_COUNT per note. */
	fieldLen: Uint32Array;
	/** Saved notes (ids ascending, removed ones included) with this alias/title key or lower-case file name. */
	namedNotes(kind: 'alias' | 'basename', key: string): number[];
	/** Saved notes whose links field (the settings' `linksKey`) names a note, by id. */
	linkFieldDocs(): number[];
}

/** A read of a saved index that failed its check (the engine then rebuilds the index and answers again). */
export class SavedIndexDamaged extends Error {
	/** Creates the error with a reason. */
	constructor(reason: string) {
		super(reason);
		this.name = 'SavedIndexDamaged';
	}
}

/**
 * A read of a saved index whose bytes are not loaded yet (a host that loads a large part's
 * postings after the index is handed out): `loaded` resolves once they are, and the query runs
 * again; it rejects with SavedIndexDamaged when they cannot be loaded.
 */
export class SavedIndexPending extends Error {
	/** `loaded`: the load of the bytes the read asked for. */
	constructor(readonly loaded: Promise<void>) {
		super('saved index: bytes not loaded yet');
		this.name = 'SavedIndexPending';
	}
}

/**
 * Runs `attempt` over a saved index: a read of bytes not loaded yet (SavedIndexPending) waits for
 * them and runs it again; a read that fails its check (SavedIndexDamaged) calls `damaged` (which
 * drops the index: the next attempt builds one from the notes) and runs it again, once.
 */
export async function retryingSaved<T>(
	attempt: () => Promise<T>,
	damaged: (error: SavedIndexDamaged) => void,
): Promise<T> {
	let dropped = false;
	for (;;) {
		try {
			return await attempt();
		} catch (error) {
			if (!(error instanceof SavedIndexPending) && !(error instanceof SavedIndexDamaged)) throw error;
			const failed = error instanceof SavedIndexPending ? await loadedOrDamaged(error) : error;
			if (failed === null) continue; // the bytes it read are loaded now
			if (dropped) throw failed;
			damaged(failed);
			dropped = true;
		}
	}
}

/** Waits for a pending read's bytes: null once they are loaded, else the SavedIndexDamaged that says why not. */
async function loadedOrDamaged(pending: SavedIndexPending): Promise<SavedIndexDamaged | null> {
	try {
		await pending.loaded;
		return null;
	} catch (error) {
		if (error instanceof SavedIndexDamaged) return error;
		return new SavedIndexDamaged(
			`saved index: unreadable (${error instanceof Error ? error.message : String(error)})`,
		);
	}
}
