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
 * - `noteRanges` + `ranges` + `meta`: per note, a range of (field code, start, end) triples into
 *   the shared metadata text (`metadata-codec.ts`); its flags say whether it was indexed.
 * - `resolvedIndex` + `resolved`: per note, a range of (file index, count) pairs.
 * - `unresolved`: JSON `[[note, {linkpath: count}], …]` for notes with unresolved links.
 * - any extra section a caller adds (the search index), as opaque bytes.
 * Notes without metadata (skipped) have an empty meta range and no link-map entry.
 */
import type { CachedMetadata, LinkMap } from '../metadata';
import { bytesOf, checksum, frame } from './bytes';
import { decodeMetadata, encodeMetadata, type DeferredField } from './metadata-codec';
import type { CodecHost } from './port';

/** Bumped whenever the byte layout or the meaning of a field changes; other versions are ignored. */
export const SNAPSHOT_FORMAT_VERSION = 1;
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
export interface EncodedMetadata {
	/** The note's piece of the shared metadata text. */
	readonly text: string;
	/** Its (code, start, end) field ranges, relative to `text`. */
	readonly ranges: ArrayLike<number>;
}

/** One note as the encoder takes it. */
export interface SnapshotNote {
	path: string;
	fingerprint: NoteFingerprint;
	metadata: CachedMetadata | EncodedMetadata | null;
	frontmatterError: string | null;
	skipReason: string | null;
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
	const metaText: string[] = [];
	let metaLength = 0;
	const resolvedIndex = new Uint32Array(n + 1);
	const pairs: number[] = [];
	const unresolved: [number, Record<string, number>][] = [];
	input.notes.forEach((note, i) => {
		const file = fileIndex.get(note.path);
		if (file === undefined) throw new SnapshotFormatError(`note not among the files: ${note.path}`);
		const fp = note.fingerprint;
		columns.set([file, fp.size, fp.mtimeMs, fp.ctimeMs, fp.ino, (fp.racy ? FLAG_RACY : 0) | (note.metadata !== null ? FLAG_INDEXED : 0)], i * NOTE_COLUMNS);
		if (note.frontmatterError !== null || note.skipReason !== null) errors.push([i, note.frontmatterError, note.skipReason]);
		if (note.metadata !== null) {
			if ('ranges' in note.metadata) {
				const kept = note.metadata;
				for (let r = 0; r < kept.ranges.length; r += 3) ranges.push(kept.ranges[r], kept.ranges[r + 1] + metaLength, kept.ranges[r + 2] + metaLength);
				if (kept.text !== '') metaText.push(kept.text);
				metaLength += kept.text.length;
			} else {
				metaLength = encodeMetadata(note.metadata, metaText, ranges, metaLength);
			}
			for (const [dest, count] of Object.entries(input.resolvedLinks[note.path] ?? {})) {
				const d = fileIndex.get(dest);
				if (d === undefined) throw new SnapshotFormatError(`link destination not among the files: ${dest}`);
				pairs.push(d, count);
			}
			const misses = input.unresolvedLinks[note.path];
			if (misses && Object.keys(misses).length > 0) unresolved.push([i, misses]);
		}
		noteRanges[i + 1] = ranges.length / 3;
		resolvedIndex[i + 1] = pairs.length / 2;
	});
	const sections: [string, Uint8Array][] = [
		['files', utf8.encode(JSON.stringify(input.files))],
		['notes', bytesOf(columns)],
		['noteErrors', utf8.encode(JSON.stringify(errors))],
		['noteRanges', bytesOf(noteRanges)],
		['ranges', bytesOf(Uint32Array.from(ranges))],
		['meta', utf8.encode(metaText.join(''))],
		['resolvedIndex', bytesOf(resolvedIndex)],
		['resolved', bytesOf(Uint32Array.from(pairs))],
		['unresolved', utf8.encode(JSON.stringify(unresolved))],
		...Object.entries(input.extra ?? {}),
	];
	return frame(MAGIC, SNAPSHOT_FORMAT_VERSION, { ...input.header, notes: n, files: input.files.length }, sections, utf8);
}

/** Only the header, for `index --status` (no checksum pass over the body). */
export function peekSnapshotHeader(bytes: Uint8Array, utf8: CodecHost): SnapshotHeader {
	const { body } = checkPreamble(bytes, null);
	return readHeader(body, utf8).header;
}

/** The body after checking magic, version, length and (optionally) checksum. */
function checkPreamble(bytes: Uint8Array, verify: CodecHost | null): { body: Uint8Array } {
	if (bytes.length < 16) throw new SnapshotFormatError('truncated (no preamble)');
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	if (view.getUint32(0, true) !== MAGIC) throw new SnapshotFormatError('not a vault-query snapshot');
	const version = view.getUint32(4, true);
	if (version !== SNAPSHOT_FORMAT_VERSION) throw new SnapshotFormatError(`format version ${version}, this build reads ${SNAPSHOT_FORMAT_VERSION}`);
	const length = view.getUint32(12, true);
	if (bytes.length !== 16 + length) throw new SnapshotFormatError(`truncated or padded (${bytes.length} bytes, expected ${16 + length})`);
	const body = bytes.subarray(16);
	if (verify !== null && (verify.checksum ?? checksum)(body) !== view.getUint32(8, true)) throw new SnapshotFormatError('checksum mismatch (damaged)');
	return { body };
}

/** The header and where the sections start. */
function readHeader(body: Uint8Array, utf8: CodecHost): { header: SnapshotHeader & { sections: Record<string, [number, number]> }; base: number } {
	const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
	const length = view.getUint32(0, true);
	if (4 + length > body.length) throw new SnapshotFormatError('truncated header');
	const header = JSON.parse(utf8.decode(body, 4, 4 + length)) as SnapshotHeader & { sections: Record<string, [number, number]> };
	return { header, base: Math.ceil((4 + length) / 8) * 8 };
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
	private metaText: string | null = null;
	private readonly resolvedIndex: Uint32Array;
	private readonly resolved: Uint32Array;
	private readonly sections: Record<string, [number, number]>;

	/** Use `decodeSnapshot`. */
	constructor(
		private readonly body: Uint8Array,
		private readonly utf8: CodecHost,
	) {
		const { header, base } = readHeader(body, utf8);
		this.header = header;
		this.sections = Object.fromEntries(Object.entries(header.sections).map(([k, [o, l]]) => [k, [base + o, l]]));
		for (const [, [o, l]] of Object.entries(this.sections)) if (o + l > body.length) throw new SnapshotFormatError('section out of bounds');
		this.files = JSON.parse(this.text('files')) as string[];
		this.columns = this.view('notes', Float64Array);
		if (this.columns.length !== header.notes * NOTE_COLUMNS) throw new SnapshotFormatError('note columns do not match the header');
		this.notePaths = new Array<string>(header.notes);
		for (let i = 0; i < header.notes; i++) {
			const path = this.files[this.columns[i * NOTE_COLUMNS]];
			if (path === undefined) throw new SnapshotFormatError('note refers to a missing file');
			this.notePaths[i] = path;
		}
		for (const [i, fe, sr] of JSON.parse(this.text('noteErrors')) as [number, string | null, string | null][]) this.errors.set(i, [fe, sr]);
		this.noteRanges = this.view('noteRanges', Uint32Array);
		this.ranges = this.view('ranges', Uint32Array);
		this.resolvedIndex = this.view('resolvedIndex', Uint32Array);
		this.resolved = this.view('resolved', Uint32Array);
		if (this.noteRanges.length !== header.notes + 1 || this.resolvedIndex.length !== header.notes + 1) throw new SnapshotFormatError('index columns do not match the header');
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

	/** The shared metadata text, decoded once. */
	private text_(): string {
		this.metaText ??= this.text('meta');
		return this.metaText;
	}

	/** Note `i`'s metadata, or null when it was skipped; `deferred` computes the fields not stored (see metadata-codec). */
	metadata(i: number, deferred: DeferredField): CachedMetadata | null {
		if (!this.indexed(i)) return null;
		return decodeMetadata(this.text_(), this.ranges, 3 * this.noteRanges[i], 3 * this.noteRanges[i + 1], deferred);
	}

	/** Note `i`'s metadata still encoded, to carry into the next snapshot without decoding; null when skipped. */
	encodedMetadata(i: number): EncodedMetadata | null {
		if (!this.indexed(i)) return null;
		const from = 3 * this.noteRanges[i];
		const to = 3 * this.noteRanges[i + 1];
		if (from === to) return { text: '', ranges: [] };
		const ranges = Array.from(this.ranges.subarray(from, to));
		let start = Infinity;
		let end = 0;
		for (let r = 0; r < ranges.length; r += 3) {
			start = Math.min(start, ranges[r + 1]);
			end = Math.max(end, ranges[r + 2]);
		}
		for (let r = 0; r < ranges.length; r += 3) {
			ranges[r + 1] -= start;
			ranges[r + 2] -= start;
		}
		return { text: this.text_().slice(start, end), ranges };
	}

	/** Note `i`'s resolved links as destination → count (insertion order kept). */
	resolvedOf(i: number): Record<string, number> {
		const out: Record<string, number> = {};
		for (let p = this.resolvedIndex[i]; p < this.resolvedIndex[i + 1]; p++) setOwn(out, this.files[this.resolved[2 * p]], this.resolved[2 * p + 1]);
		return out;
	}

	/** Unresolved links of every note that has some, by note number. */
	unresolvedByNote(): Map<number, Record<string, number>> {
		return new Map(JSON.parse(this.text('unresolved')) as [number, Record<string, number>][]);
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
	const { body } = checkPreamble(aligned, utf8);
	try {
		return new DecodedSnapshot(body, utf8);
	} catch (error) {
		if (error instanceof SnapshotFormatError) throw error;
		throw new SnapshotFormatError(`unreadable (${error instanceof Error ? error.message : String(error)})`);
	}
}
