/**
 * The snapshot codec: a vault's indexed state ⇄ bytes, with a format version, a settings
 * fingerprint and a per-note fingerprint so a later call can tell what is still valid.
 *
 * Layout (little-endian): magic `VQSN`, format version u32, checksum u32 of the body, body length
 * u32, then the body: header length u32, header JSON, padding to 8, sections. The header lists each
 * section's offset and length. Sections are 8-byte aligned so numeric columns are viewed in place:
 * - `files`: JSON array of every vault file (notes and attachments), walk order.
 * - `notes`: Float64 columns, NOTE_COLUMNS per note: file index, size, mtime, ctime, inode, flags.
 * - `noteErrors`: JSON `[[note, frontmatterError, skipReason], …]` for notes that have either.
 * - `noteRanges` + `ranges`: per note, a range of (field code, start, end, check) quadruples
 *   into the `meta` bytes (`metadata-codec.ts`); its flags say whether it was indexed.
 * - `resolvedIndex` + `resolved`: per note, a range of (file index, count) pairs.
 * - `unresolved`: JSON `[[note, {linkpath: count}], …]` for notes with unresolved links.
 * - any extra section a caller adds, as opaque bytes.
 * - `meta`, last: every note's fields as UTF-8 JSON pieces. The body's checksum stops before it
 *   (header `checkedTo`): each piece has its own check, verified when a query reads that field,
 *   so a warm call hashes the ~2 MB of columns it needs, not the 12 MB of metadata of a 6k-note
 *   vault. A piece that fails its check is taken from the note on disk instead (its fingerprint
 *   matched) and the snapshot is saved again: damage costs a re-parse, never a wrong answer.
 * Notes without metadata (skipped) have an empty meta range and no link-map entry.
 */
import type { CachedMetadata, LinkMap } from '../metadata';
import { ByteWriter, bytesOf, checksum, fieldCheck, frame, indexOf } from './bytes';
import { ALL_TAGS, encodeMetadata, FRONTMATTER, RANGE_WIDTH, TAGGED_FRONTMATTER } from './metadata-codec';
import { storedMetadata, type FieldStore, type FromDisk } from './stored-metadata';
import type { CodecHost } from './port';

/** Bumped whenever the byte layout or the meaning of a field changes; other versions are ignored. */
export const SNAPSHOT_FORMAT_VERSION = 3;
const MAGIC = 0x4e535156; // 'VQSN' read as a little-endian u32
const NOTE_COLUMNS = 6;
const FLAG_RACY = 1;
const FLAG_INDEXED = 2;

/** What identifies a note's bytes on disk without reading them. */
export interface NoteFingerprint {
	size: number;
	mtimeMs: number;
	/** Status-change time: no user program can set it back, so it betrays same-size, same-mtime edits. */
	ctimeMs: number;
	/** Inode number, 0 where the file system has none. */
	ino: number;
	/** Modified so recently when read that a later same-tick edit could share this fingerprint: re-read next time. */
	racy: boolean;
}

/** A note's metadata already encoded (kept from an earlier snapshot without decoding it). */
export class EncodedMetadata {
	/** Creates it from the note's bytes of the `meta` section and its (code, start, end, check) quadruples relative to them. */
	constructor(
		/** The note's fields as UTF-8 JSON pieces. */
		readonly bytes: Uint8Array,
		/** Its field quadruples; the checks are carried as saved, so damage stays detectable. */
		readonly ranges: ArrayLike<number>,
	) {}
}

/** One note as the encoder takes it. */
export interface SnapshotNote {
	path: string;
	fingerprint: NoteFingerprint;
	metadata: CachedMetadata | EncodedMetadata | null;
	frontmatterError: string | null;
	skipReason: string | null;
	/**
	 * The note's resolved links as saved (file index, count) pairs, carried as they are when the
	 * file list is the one they index; else they are taken from `resolvedLinks`.
	 */
	resolvedPairs?: ArrayLike<number>;
}

/** Facts saved beside the notes; the loader checks them before trusting anything else. */
export interface SnapshotHeader {
	/** The tool's version plus a build stamp: another build may parse differently. */
	tool: string;
	/** Everything else that changes what is indexed (config folder, size limit…), as one string. */
	settings: string;
	/** The vault's real path when saved. */
	vaultPath: string;
	/** When saved, ms since the epoch. */
	savedAt: number;
	/** Obsidian's "Excluded files" at save time. */
	userIgnoreFilters: string[];
	/** Counts for `index --status`. */
	notes: number;
	files: number;
	/** Byte size of the vault's notes as last read (for the size report). */
	markdownBytes: number;
}

/** Everything the encoder needs. */
export interface SnapshotInput {
	header: Omit<SnapshotHeader, 'notes' | 'files'>;
	files: readonly string[];
	notes: readonly SnapshotNote[];
	resolvedLinks: LinkMap;
	unresolvedLinks: LinkMap;
	/** Opaque sections (e.g. `search`), stored as given. */
	extra?: Record<string, Uint8Array>;
}

/** Raised for bytes that are not a usable snapshot; the message says why (for `--verbose`). */
export class SnapshotFormatError extends Error {
	/** Creates the error with a reason. */
	constructor(reason: string) {
		super(reason);
		this.name = 'SnapshotFormatError';
	}
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Encode a vault's state. */
export function encodeSnapshot(input: SnapshotInput, utf8: CodecHost): Uint8Array {
	if (!LITTLE_ENDIAN) throw new SnapshotFormatError('big-endian hosts are not supported');
	const fileIndex = new Map<string, number>();
	input.files.forEach((f, i) => fileIndex.set(f, i));
	const n = input.notes.length;
	const columns = new Float64Array(n * NOTE_COLUMNS);
	const errors: [number, string | null, string | null][] = [];
	const noteRanges = new Uint32Array(n + 1);
	const ranges: number[] = [];
	const meta = new ByteWriter(1 << 20);
	const put = (code: number, json: string): void => {
		const start = meta.length;
		meta.text(json, utf8);
		ranges.push(code, start, meta.length, fieldCheck(meta.peek(), start, meta.length));
	};
	const resolvedIndex = new Uint32Array(n + 1);
	const pairs: number[] = [];
	const unresolved: [number, Record<string, number>][] = [];
	input.notes.forEach((note, i) => {
		const file = fileIndex.get(note.path);
		if (file === undefined) throw new SnapshotFormatError(`note not among the files: ${note.path}`);
		const fp = note.fingerprint;
		const at = i * NOTE_COLUMNS;
		columns[at] = file;
		columns[at + 1] = fp.size;
		columns[at + 2] = fp.mtimeMs;
		columns[at + 3] = fp.ctimeMs;
		columns[at + 4] = fp.ino;
		columns[at + 5] = (fp.racy ? FLAG_RACY : 0) | (note.metadata !== null ? FLAG_INDEXED : 0);
		if (note.frontmatterError !== null || note.skipReason !== null) errors.push([i, note.frontmatterError, note.skipReason]);
		if (note.metadata !== null) {
			if (note.metadata instanceof EncodedMetadata) {
				const kept = note.metadata;
				const base = meta.length;
				meta.bytes(kept.bytes);
				for (let r = 0; r < kept.ranges.length; r += RANGE_WIDTH) ranges.push(kept.ranges[r], kept.ranges[r + 1] + base, kept.ranges[r + 2] + base, kept.ranges[r + 3]);
			} else {
				encodeMetadata(note.metadata, put);
			}
			if (note.resolvedPairs) {
				for (let p = 0; p < note.resolvedPairs.length; p++) pairs.push(note.resolvedPairs[p]);
			} else {
				for (const [dest, count] of Object.entries(input.resolvedLinks[note.path] ?? {})) {
					const d = fileIndex.get(dest);
					if (d === undefined) throw new SnapshotFormatError(`link destination not among the files: ${dest}`);
					pairs.push(d, count);
				}
			}
			const misses = input.unresolvedLinks[note.path];
			if (misses && Object.keys(misses).length > 0) unresolved.push([i, misses]);
		}
		noteRanges[i + 1] = ranges.length / RANGE_WIDTH;
		resolvedIndex[i + 1] = pairs.length / 2;
	});
	const sections: [string, Uint8Array][] = [
		['files', utf8.encode(JSON.stringify(input.files))],
		['notes', bytesOf(columns)],
		['noteErrors', utf8.encode(JSON.stringify(errors))],
		['noteRanges', bytesOf(noteRanges)],
		['ranges', bytesOf(Uint32Array.from(ranges))],
		['resolvedIndex', bytesOf(resolvedIndex)],
		['resolved', bytesOf(Uint32Array.from(pairs))],
		['unresolved', utf8.encode(JSON.stringify(unresolved))],
		...Object.entries(input.extra ?? {}),
		['meta', meta.finish()],
	];
	return frame(MAGIC, SNAPSHOT_FORMAT_VERSION, { ...input.header, notes: n, files: input.files.length }, sections, utf8, 1);
}

/** Only the header, for `index --status` (no checksum pass over the body). */
export function peekSnapshotHeader(bytes: Uint8Array, utf8: CodecHost): SnapshotHeader {
	return readHeader(checkPreamble(bytes).body, utf8).header;
}

/** The header as stored: the saved facts plus where each section is. */
type StoredHeader = SnapshotHeader & { sections: Record<string, [number, number]>; checkedTo?: number };

/** The body after checking magic, version and length (the checksum needs the header: see `verify`). */
function checkPreamble(bytes: Uint8Array): { body: Uint8Array; sum: number } {
	if (bytes.length < 16) throw new SnapshotFormatError('truncated (no preamble)');
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	if (view.getUint32(0, true) !== MAGIC) throw new SnapshotFormatError('not a vault-query snapshot');
	const version = view.getUint32(4, true);
	if (version !== SNAPSHOT_FORMAT_VERSION) throw new SnapshotFormatError(`format version ${version}, this build reads ${SNAPSHOT_FORMAT_VERSION}`);
	const length = view.getUint32(12, true);
	if (bytes.length !== 16 + length) throw new SnapshotFormatError(`truncated or padded (${bytes.length} bytes, expected ${16 + length})`);
	return { body: bytes.subarray(16), sum: view.getUint32(8, true) };
}

/** The header and where the sections start. */
function readHeader(body: Uint8Array, utf8: CodecHost): { header: StoredHeader; base: number } {
	const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
	if (body.length < 4) throw new SnapshotFormatError('truncated header');
	const length = view.getUint32(0, true);
	if (4 + length > body.length) throw new SnapshotFormatError('truncated header');
	const header = JSON.parse(utf8.decode(body, 4, 4 + length)) as StoredHeader;
	if (header === null || typeof header !== 'object' || header.sections === null || typeof header.sections !== 'object') throw new SnapshotFormatError('no section table');
	return { header, base: Math.ceil((4 + length) / 8) * 8 };
}

/**
 * The checksum of the checked part of the body: the header and every section before `meta`. The
 * header is read before it is verified, but it lies inside what is verified, so a damaged header
 * fails here (or fails to parse) and is never trusted.
 */
function verify(body: Uint8Array, sum: number, header: StoredHeader, base: number, host: CodecHost): void {
	const checkedTo = header.checkedTo;
	if (typeof checkedTo !== 'number' || !(checkedTo >= 0) || base + checkedTo > body.length) throw new SnapshotFormatError('checksum range out of bounds');
	if ((host.checksum ?? checksum)(body.subarray(0, base + checkedTo)) !== sum) throw new SnapshotFormatError('checksum mismatch (damaged)');
}

/** A decoded snapshot: columns are views into the bytes; metadata and link maps decode on demand. */
export class DecodedSnapshot {
	/** The saved facts. */
	readonly header: SnapshotHeader;
	/** Every vault file at save time, walk order. */
	readonly files: string[];
	/** Note paths, walk order (index = note number). */
	readonly notePaths: string[];
	private readonly columns: Float64Array;
	private readonly errors = new Map<number, [string | null, string | null]>();
	private readonly noteRanges: Uint32Array;
	private readonly ranges: Uint32Array;
	private readonly meta: Uint8Array;
	private readonly fields: FieldStore;
	private readonly resolvedIndex: Uint32Array;
	private readonly resolved: Uint32Array;
	private readonly sections: Record<string, [number, number]>;
	private unresolved: Map<number, Record<string, number>> | null = null;
	private readonly needles = new Map<string, Uint8Array>();

	/** Use `decodeSnapshot`. */
	constructor(
		private readonly body: Uint8Array,
		stored: { header: StoredHeader; base: number },
		private readonly utf8: CodecHost,
	) {
		const { header, base } = stored;
		this.header = header;
		this.sections = {};
		for (const [k, [o, l]] of Object.entries(header.sections)) {
			if (!(o >= 0 && l >= 0 && base + o + l <= body.length)) throw new SnapshotFormatError('section out of bounds');
			this.sections[k] = [base + o, l];
		}
		this.files = JSON.parse(this.text('files')) as string[];
		this.columns = this.view('notes', Float64Array);
		if (!Array.isArray(this.files) || this.columns.length !== header.notes * NOTE_COLUMNS) throw new SnapshotFormatError('note columns do not match the header');
		this.notePaths = new Array<string>(header.notes);
		for (let i = 0; i < header.notes; i++) {
			const path = this.files[this.columns[i * NOTE_COLUMNS]];
			if (path === undefined) throw new SnapshotFormatError('note refers to a missing file');
			this.notePaths[i] = path;
		}
		for (const [i, fe, sr] of JSON.parse(this.text('noteErrors')) as [number, string | null, string | null][]) this.errors.set(i, [fe, sr]);
		this.noteRanges = this.view('noteRanges', Uint32Array);
		this.ranges = this.view('ranges', Uint32Array);
		this.meta = this.bytes('meta');
		this.fields = { bytes: this.meta, ranges: this.ranges, decode: (b, s, e) => utf8.decode(b, s, e), check: fieldCheck };
		this.resolvedIndex = this.view('resolvedIndex', Uint32Array);
		this.resolved = this.view('resolved', Uint32Array);
		if (this.noteRanges.length !== header.notes + 1 || this.resolvedIndex.length !== header.notes + 1) throw new SnapshotFormatError('index columns do not match the header');
		if (this.noteRanges[header.notes] * RANGE_WIDTH > this.ranges.length || this.resolvedIndex[header.notes] * 2 > this.resolved.length) throw new SnapshotFormatError('index columns out of bounds');
	}

	/** A section's bytes, or null when absent. */
	section(name: string): Uint8Array | null {
		return this.sections[name] ? this.bytes(name) : null;
	}

	private bytes(name: string): Uint8Array {
		const where = this.sections[name];
		if (!where) throw new SnapshotFormatError(`missing section ${name}`);
		return this.body.subarray(where[0], where[0] + where[1]);
	}

	private text(name: string): string {
		const b = this.bytes(name);
		return this.utf8.decode(b, 0, b.length);
	}

	private view<T extends Uint32Array | Float64Array>(name: string, Kind: { new (buffer: ArrayBufferLike, offset: number, length: number): T; BYTES_PER_ELEMENT: number }): T {
		const b = this.bytes(name);
		if (b.length % Kind.BYTES_PER_ELEMENT !== 0) throw new SnapshotFormatError(`section ${name} is not a whole column`);
		return new Kind(b.buffer, b.byteOffset, b.length / Kind.BYTES_PER_ELEMENT);
	}

	/** The fingerprint of note `i`. */
	fingerprint(i: number): NoteFingerprint {
		const c = this.columns;
		const k = i * NOTE_COLUMNS;
		return { size: c[k + 1], mtimeMs: c[k + 2], ctimeMs: c[k + 3], ino: c[k + 4], racy: (c[k + 5] & FLAG_RACY) !== 0 };
	}

	/** Note `i`'s frontmatter error and skip reason. */
	problems(i: number): [string | null, string | null] {
		return this.errors.get(i) ?? [null, null];
	}

	/** Whether note `i` was indexed (has metadata and link-map entries). */
	indexed(i: number): boolean {
		return (this.columns[i * NOTE_COLUMNS + 5] & FLAG_INDEXED) !== 0;
	}

	/**
	 * Note `i`'s metadata, or null when it was skipped. Fields decode from their own bytes when
	 * read; `fromDisk` gives the fields not stored and those whose bytes are damaged (see metadata-codec).
	 */
	metadata(i: number, fromDisk: FromDisk): CachedMetadata | null {
		if (!this.indexed(i)) return null;
		return storedMetadata(this.fields, RANGE_WIDTH * this.noteRanges[i], RANGE_WIDTH * this.noteRanges[i + 1], fromDisk);
	}

	/**
	 * True when note `i`'s saved frontmatter certainly has no key `key`: its JSON bytes hold no
	 * `"key":` (JSON escapes every quote inside a string, so that sequence is always a key; a
	 * nested key only makes the answer "maybe"). False — maybe — when the bytes fail their check.
	 */
	lacksKey(i: number, key: string): boolean {
		if (!this.indexed(i)) return true;
		const from = RANGE_WIDTH * this.noteRanges[i];
		const to = RANGE_WIDTH * this.noteRanges[i + 1];
		for (let r = from; r < to; r += RANGE_WIDTH) {
			const code = this.ranges[r];
			if (code !== FRONTMATTER && code !== TAGGED_FRONTMATTER) continue;
			const start = this.ranges[r + 1];
			const end = this.ranges[r + 2];
			if (end > this.meta.length || start > end || fieldCheck(this.meta, start, end) !== this.ranges[r + 3]) return false;
			let needle = this.needles.get(key);
			if (needle === undefined) this.needles.set(key, (needle = this.utf8.encode(`${JSON.stringify(key)}:`)));
			return indexOf(this.meta, needle, start, end) < 0;
		}
		return true;
	}

	/**
	 * Note `i`'s tags as `getAllTags` gives them, from the list saved with it (no metadata
	 * decoded); null when the note was skipped or the list fails its check (then ask its metadata).
	 */
	allTags(i: number): string[] | null {
		if (!this.indexed(i)) return null;
		const from = RANGE_WIDTH * this.noteRanges[i];
		const to = RANGE_WIDTH * this.noteRanges[i + 1];
		for (let r = from; r < to; r += RANGE_WIDTH) {
			if (this.ranges[r] !== ALL_TAGS) continue;
			const start = this.ranges[r + 1];
			const end = this.ranges[r + 2];
			if (end > this.meta.length || start > end || fieldCheck(this.meta, start, end) !== this.ranges[r + 3]) return null;
			try {
				const tags: unknown = JSON.parse(this.utf8.decode(this.meta, start, end));
				return Array.isArray(tags) && tags.every((t) => typeof t === 'string') ? tags : null;
			} catch {
				return null;
			}
		}
		return [];
	}

	/** Note `i`'s metadata still encoded, to carry into the next snapshot without decoding; null when skipped. */
	encodedMetadata(i: number): EncodedMetadata | null {
		if (!this.indexed(i)) return null;
		const from = RANGE_WIDTH * this.noteRanges[i];
		const to = RANGE_WIDTH * this.noteRanges[i + 1];
		if (from === to) return new EncodedMetadata(new Uint8Array(0), []);
		const ranges = Array.from(this.ranges.subarray(from, to));
		let start = Infinity;
		let end = 0;
		for (let r = 0; r < ranges.length; r += RANGE_WIDTH) {
			start = Math.min(start, ranges[r + 1]);
			end = Math.max(end, ranges[r + 2]);
		}
		end = Math.min(Math.max(end, start), this.meta.length);
		for (let r = 0; r < ranges.length; r += RANGE_WIDTH) {
			ranges[r + 1] -= start;
			ranges[r + 2] -= start;
		}
		return new EncodedMetadata(this.meta.subarray(start, end), ranges);
	}

	/** The (file index, count) pairs of note `i`'s resolved links are `resolvedPair(p)` for p in [from, to). */
	resolvedSpan(i: number): [number, number] {
		return [this.resolvedIndex[i], this.resolvedIndex[i + 1]];
	}

	/** Note `i`'s resolved links as saved: (file index, count) pairs into `files`. */
	resolvedPairs(i: number): Uint32Array {
		return this.resolved.subarray(2 * this.resolvedIndex[i], 2 * this.resolvedIndex[i + 1]);
	}

	/** Destination file index of resolved-link pair `p`. */
	resolvedDest(p: number): number {
		return this.resolved[2 * p];
	}

	/** Note `i`'s resolved links as destination → count (insertion order kept). */
	resolvedOf(i: number): Record<string, number> {
		const out: Record<string, number> = {};
		for (let p = this.resolvedIndex[i]; p < this.resolvedIndex[i + 1]; p++) setOwn(out, this.files[this.resolved[2 * p]], this.resolved[2 * p + 1]);
		return out;
	}

	/** Unresolved links of every note that has some, by note number (parsed once). */
	unresolvedByNote(): Map<number, Record<string, number>> {
		this.unresolved ??= new Map(JSON.parse(this.text('unresolved')) as [number, Record<string, number>][]);
		return this.unresolved;
	}
}

/** `target[key] = value`, storing `__proto__` as an own property too. */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
	if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
	else target[key] = value;
}

/** Decode and verify a snapshot; throws SnapshotFormatError for anything unusable. */
export function decodeSnapshot(bytes: Uint8Array, utf8: CodecHost): DecodedSnapshot {
	// Typed views need 8-byte alignment relative to the buffer; a pooled read may not give it.
	const aligned = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
	const { body, sum } = checkPreamble(aligned);
	try {
		const stored = readHeader(body, utf8);
		verify(body, sum, stored.header, stored.base, utf8);
		return new DecodedSnapshot(body, stored, utf8);
	} catch (error) {
		if (error instanceof SnapshotFormatError) throw error;
		throw new SnapshotFormatError(`unreadable (${error instanceof Error ? error.message : String(error)})`);
	}
}
