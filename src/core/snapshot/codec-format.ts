/**
 * The snapshot's format: its version, the per-note fingerprint, the encoder's input and the error
 * raised for bytes that are not a usable snapshot (shared by the encoder and the decoder).
 */
import type { CachedMetadata, LinkMap } from '../metadata';
import type { SnapshotReader } from './port';

/** Bumped whenever the byte layout or the meaning of a field changes; other versions are ignored. */
export const SNAPSHOT_FORMAT_VERSION = 4;
/** 'VQSN' read as a little-endian u32. */
export const MAGIC = 0x4e535156;
/** Float64 columns per note: file index, size, mtime, ctime, inode, flags. */
export const NOTE_COLUMNS = 6;
/** Flag: the note was racy when read. */
export const FLAG_RACY = 1;
/** Flag: the note was indexed (has metadata and link-map entries). */
export const FLAG_INDEXED = 2;

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

/** A note's metadata already encoded (kept from an earlier snapshot without decoding it), with its key and tag lists. */
export class EncodedMetadata {
	/** Creates it from the note's bytes of the two metadata heaps and its (code, start, end, check) quadruples relative to them. */
	constructor(
		/** The note's hot fields (frontmatter, its links, tags) as UTF-8 JSON pieces. */
		readonly hot: Uint8Array,
		/** The note's other fields. */
		readonly cold: Uint8Array,
		/** Its field quadruples, each relative to its heap's bytes; the checks are carried as saved, so damage stays detectable. */
		readonly ranges: ArrayLike<number>,
		/** Its frontmatter's own keys, as saved. */
		readonly keys: readonly string[],
		/** Its `getAllTags`, as saved. */
		readonly tags: readonly string[],
	) {}
}

/** A note kept as saved: note number `index` of the snapshot whose heaps are carried (`SnapshotInput.carry`). */
export class CarriedNote {
	/** Note `index` of the carried snapshot. */
	constructor(readonly index: number) {}
}

/**
 * The previous snapshot's metadata heaps, carried whole into the next one: kept notes keep their
 * byte ranges, changed notes' fields are appended, and what no note points at any more stays as
 * garbage until a save finds too much of it and writes the heaps afresh.
 */
export interface CarriedHeaps {
	hot: Uint8Array;
	cold: Uint8Array;
	/** Note `i`'s field quadruples, offsets into the heaps above. */
	ranges(i: number): ArrayLike<number>;
	/** Note `i`'s frontmatter keys and tags, as saved. */
	keys(i: number): readonly string[];
	tags(i: number): readonly string[];
}

/** One note as the encoder takes it. */
export interface SnapshotNote {
	path: string;
	fingerprint: NoteFingerprint;
	metadata: CachedMetadata | EncodedMetadata | CarriedNote | null;
	frontmatterError: string | null;
	skipReason: string | null;
	/**
	 * The note's resolved links as saved (file index, count) pairs, carried as they are when the
	 * file list is the one they index; else they are taken from `resolvedLinks`.
	 */
	resolvedPairs?: ArrayLike<number>;
	/** The note's unresolved links as saved, carried like `resolvedPairs`; else taken from `unresolvedLinks`. */
	unresolved?: Record<string, number>;
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
	/** Bytes of the two metadata heaps, and how many of them no note points at (left by carried saves). */
	heapBytes?: number;
	garbageBytes?: number;
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
	/** The previous snapshot's heaps, when notes are passed as `CarriedNote`s. */
	carry?: CarriedHeaps;
}

/** Raised for bytes that are not a usable snapshot; the message says why (for `--verbose`). */
export class SnapshotFormatError extends Error {
	/** Creates the error with a reason. */
	constructor(reason: string) {
		super(reason);
		this.name = 'SnapshotFormatError';
	}
}

/** What a framed file's preamble must say, and how its errors name the file. */
export interface FrameKind {
	magic: number;
	version: number;
	/** What it is not when the magic differs: "not a vault-query <noun>". */
	noun: string;
	/** Before every other error ('part: '; '' for the snapshot). */
	prefix: string;
}

/**
 * Reads and checks the preamble of a framed file (magic, format version, checksum, body length:
 * 16 bytes; `read` bytes are read, for fields that follow it): the magic and version of `kind`
 * and a body that fills the file exactly. Returns a view of what it read; throws SnapshotFormatError.
 */
export function checkedPreamble(reader: SnapshotReader, kind: FrameKind, read = 16): DataView {
	if (reader.size < read) throw new SnapshotFormatError(`${kind.prefix}truncated (no preamble)`);
	const pre = reader.read(0, read);
	const view = new DataView(pre.buffer, pre.byteOffset, pre.byteLength);
	if (view.getUint32(0, true) !== kind.magic) throw new SnapshotFormatError(`not a vault-query ${kind.noun}`);
	const version = view.getUint32(4, true);
	if (version !== kind.version)
		throw new SnapshotFormatError(`${kind.prefix}format version ${version}, this build reads ${kind.version}`);
	const expected = 16 + view.getUint32(12, true);
	if (reader.size !== expected)
		throw new SnapshotFormatError(`${kind.prefix}truncated or padded (${reader.size} bytes, expected ${expected})`);
	return view;
}

/** `target[key] = value`, storing `__proto__` as an own property too. */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
	if (key === '__proto__')
		Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
	else target[key] = value;
}
