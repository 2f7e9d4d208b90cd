/**
 * The index's per-note records by id: built in memory, or restored from a saved part where each
 * record is decoded when first read — a warm search reads the records of its few dozen hits, not
 * of every note (paths alone are decoded up front: the index maps paths to ids).
 */
import { drain } from '../steps';
import type { DocInfo } from './extract';

/** Saved records decoded between two pauses of `allSteps`. */
const DECODE_STEP = 512; // why: a record's decode is ~12 µs at 50k notes: a step of ~6 ms; all 50k in one go held a main thread ~0.6 s.

/** The saved records (search-part.ts): ids 0…count-1. */
export interface SavedDocs {
	/** Records saved. */
	readonly count: number;
	/** Note `d`'s path. */
	path(d: number): string;
	/** Note `d`'s record. */
	record(d: number): DocInfo;
}

/** Records by id for one read each (`DocTable.readOnce`), removed ids included. */
export interface ExportDocs {
	/** Ids assigned (live or removed). */
	readonly length: number;
	/** Whether id `d` is a live note. */
	live(d: number): boolean;
	/** Live note `d`'s record. */
	info(d: number): DocInfo;
	/** Live note `d`'s path (without decoding its record). */
	path(d: number): string;
}

/** Records by id; null for removed ids (see the module comment). */
export class DocTable {
	/** Decoded records; undefined where a saved one is not decoded yet. */
	private readonly list: (DocInfo | null | undefined)[];

	/** An empty table, or one over saved records. */
	constructor(private readonly saved: SavedDocs | null = null) {
		this.list = saved === null ? [] : new Array<DocInfo | undefined>(saved.count);
	}

	/** Ids assigned (live or removed). */
	get length(): number {
		return this.list.length;
	}

	/** Note `d`'s record, or null when removed (or out of range). */
	get(d: number): DocInfo | null {
		const info = this.list[d];
		if (info !== undefined) return info;
		if (this.saved === null || d < 0 || d >= this.saved.count) return null;
		const decoded = this.saved.record(d);
		this.list[d] = decoded;
		return decoded;
	}

	/** Note `d`'s path without decoding its record, or null when removed. */
	path(d: number): string | null {
		const info = this.list[d];
		if (info !== undefined) return info === null ? null : info.path;
		return this.saved !== null && d >= 0 && d < this.saved.count ? this.saved.path(d) : null;
	}

	/** Add a record under the next id; returns the id. */
	push(info: DocInfo): number {
		this.list.push(info);
		return this.list.length - 1;
	}

	/** Mark id `d` removed. */
	drop(d: number): void {
		this.list[d] = null;
	}

	/**
	 * The records by id for a save to read once each: a saved one not decoded yet is decoded at each
	 * read and not kept — a save that decoded and kept every record (~30 MB of objects at 50k notes)
	 * left them to the browser's young-generation collections to copy, 30–60 ms each on the main
	 * thread, and the restored index the larger for good.
	 */
	readOnce(): ExportDocs {
		return {
			length: this.list.length,
			live: (d) => this.list[d] !== null,
			info: (d) => this.list[d] ?? this.saved!.record(d),
			path: (d) => this.path(d)!,
		};
	}

	/** Every record by id (decodes the saved ones). */
	all(): (DocInfo | null)[] {
		return drain(this.allSteps());
	}

	/** `all` in steps of {@link DECODE_STEP} records. */
	*allSteps(): Generator<void, (DocInfo | null)[], void> {
		for (let d = 0; d < this.list.length; d++) {
			this.get(d);
			if ((d + 1) % DECODE_STEP === 0) yield;
		}
		return this.list as (DocInfo | null)[];
	}
}
