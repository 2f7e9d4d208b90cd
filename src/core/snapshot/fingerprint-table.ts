/**
 * Every note's fingerprint in number columns, read as a `ReadonlyMap` whose reads make each
 * fingerprint's object as they are asked for. A Map of 50k fingerprint objects held 6.6 MB of a
 * Chromium page's heap for the whole of a first start's build (two boxed times a note), enough to
 * bring a collection of Obsidian's whole heap into the build; these columns hold ~1 MB of heap (the
 * paths' positions) beside 2 MB of numbers outside it.
 */
import type { NoteFingerprint } from './codec-format';

/** Numbers a note takes in the columns: size, mtime, ctime, inode, racy (1 or 0). */
const COLUMNS = 5;

/** Notes room is made for at first (the columns double when full). */
const FIRST_ROOM = 1024;

/** Fingerprints by path, in the order added (see the module comment). */
export class FingerprintTable implements ReadonlyMap<string, NoteFingerprint> {
	private readonly rows = new Map<string, number>();
	private readonly paths: string[] = [];
	private numbers = new Float64Array(FIRST_ROOM * COLUMNS);

	/** Adds `path`'s fingerprint, or replaces it where it was added before (keeping its place). */
	set(path: string, fingerprint: NoteFingerprint): this {
		let row = this.rows.get(path);
		if (row === undefined) {
			row = this.paths.length;
			if ((row + 1) * COLUMNS > this.numbers.length) this.grow();
			this.rows.set(path, row);
			this.paths.push(path);
		}
		const at = row * COLUMNS;
		this.numbers[at] = fingerprint.size;
		this.numbers[at + 1] = fingerprint.mtimeMs;
		this.numbers[at + 2] = fingerprint.ctimeMs;
		this.numbers[at + 3] = fingerprint.ino;
		this.numbers[at + 4] = fingerprint.racy ? 1 : 0;
		return this;
	}

	/** The number of notes. */
	get size(): number {
		return this.paths.length;
	}

	/** Whether `path` has a fingerprint. */
	has(path: string): boolean {
		return this.rows.has(path);
	}

	/** `path`'s fingerprint (a new object each time), or undefined. */
	get(path: string): NoteFingerprint | undefined {
		const row = this.rows.get(path);
		return row === undefined ? undefined : this.fingerprintAt(row);
	}

	/** Each path with its fingerprint, in the order added. */
	*entries(): MapIterator<[string, NoteFingerprint]> {
		for (let row = 0; row < this.paths.length; row++) yield [this.paths[row]!, this.fingerprintAt(row)];
	}

	/** The paths, in the order added. */
	*keys(): MapIterator<string> {
		yield* this.paths;
	}

	/** The fingerprints, in the order added. */
	*values(): MapIterator<NoteFingerprint> {
		for (let row = 0; row < this.paths.length; row++) yield this.fingerprintAt(row);
	}

	/** As {@link entries}. */
	[Symbol.iterator](): MapIterator<[string, NoteFingerprint]> {
		return this.entries();
	}

	/** Calls `each` with every fingerprint and its path, in the order added. */
	forEach(
		each: (fingerprint: NoteFingerprint, path: string, table: ReadonlyMap<string, NoteFingerprint>) => void,
		thisArg?: unknown,
	): void {
		for (let row = 0; row < this.paths.length; row++)
			each.call(thisArg, this.fingerprintAt(row), this.paths[row]!, this);
	}

	private fingerprintAt(row: number): NoteFingerprint {
		const at = row * COLUMNS;
		const n = this.numbers;
		return { size: n[at]!, mtimeMs: n[at + 1]!, ctimeMs: n[at + 2]!, ino: n[at + 3]!, racy: n[at + 4] === 1 };
	}

	private grow(): void {
		const numbers = new Float64Array(this.numbers.length * 2);
		numbers.set(this.numbers);
		this.numbers = numbers;
	}
}
