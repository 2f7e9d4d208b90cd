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
