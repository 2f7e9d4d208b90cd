/**
 * A saved index part (the ranked-search index, the trigram index): kept in its own file beside the
 * vault's snapshot, so a structural query never reads it and each part is saved when it changes.
 * A part says which note versions it was built from — every note's path and fingerprint — so a
 * later call re-indexes exactly the notes that changed since, whatever other calls did meanwhile.
 *
 * Layout (little-endian): magic `VQSP`, format version u32, checksum u32 of the header, body length
 * u32; the body: header length u32, header JSON (kind, tool, settings, block size, section table),
 * padding to 8, then 8-byte-aligned sections: `paths` (JSON), `stamps` (Float64, STAMP_COLUMNS per
 * note) and the part's own sections. Each section carries one checksum per block of BLOCK bytes,
 * and a part is read through `SnapshotReader`: only the blocks a query reads are read and checked —
 * a warm search touches a few hundred kB of an 18 MB part (on a VM every fresh page costs ~15 µs).
 */
import { drain, WorkMeter } from '../steps';
import { bytesOf } from './bytes';
import { SnapshotFormatError, type NoteFingerprint } from './codec';
import { stampIs } from './stamp';
import { checkedPreamble } from './codec-format';
import { jsonArraySteps, jsonStringsSteps } from './json-steps';
import { checkedRange, sameRange, sameWidth, sumOf, type SectionEntry, type SectionRanges } from './part-blocks';
import type { CodecHost, SnapshotReader } from './port';

/** Bumped whenever the layout of a part changes; other versions are ignored. */
export const PART_FORMAT_VERSION = 2; // 2: checksums per section block, read lazily
const MAGIC = 0x50535156; // 'VQSP' read as a little-endian u32
const STAMP_COLUMNS = 5;
/** Bytes per checked block of a section (a multiple of 8, so a block read stays aligned). */
const BLOCK = 16 * 1024; // why: a common word's postings fit in a block or two; smaller blocks bloat the header.
/** Blocks checksummed (or copied) between two pauses of `encodePartSteps`. */
const ENCODE_STEP_BLOCKS = 16; // why: 256 kB, about a millisecond of checksum on a quiet machine.
/** Notes' stamps packed between two pauses of an encoding. */
const STAMPS_STEP = 4096; // why: well under a millisecond of copying.

/** Bytes in memory as SnapshotReader. */
export function memoryPart(bytes: Uint8Array): SnapshotReader {
	return {
		size: bytes.length,
		read: (offset, length) => {
			const view = bytes.subarray(offset, offset + length);
			return view.byteOffset % 8 === 0 ? view : view.slice();
		},
	};
}

/** The last i below `count` whose `starts[i]` (ascending) is ≤ `at`; 0 when none is. */
export function lastAtOrBelow(starts: ArrayLike<number>, count: number, at: number): number {
	let lo = 0;
	let hi = count - 1;
	while (lo < hi) {
		const mid = (lo + hi + 1) >>> 1;
		if (starts[mid]! <= at) lo = mid;
		else hi = mid - 1;
	}
	return lo;
}

/**
 * Bytes kept in consecutive chunks (a store's records) as SnapshotReader, with no copy into one
 * array: a read inside one chunk is a view of it, a read across chunks is copied (only sections
 * read whole are that large). Null when the chunks do not add up to `size`.
 */
export function chunkedPart(chunks: readonly Uint8Array[], size: number): SnapshotReader | null {
	const starts = new Array<number>(chunks.length + 1);
	starts[0] = 0;
	for (let i = 0; i < chunks.length; i++) starts[i + 1] = starts[i]! + chunks[i]!.length;
	if (starts[chunks.length] !== size) return null;
	/** The chunk holding byte `at`. */
	const chunkAt = (at: number): number => lastAtOrBelow(starts, chunks.length, at);
	return {
		size,
		read: (offset, length) => {
			if (offset < 0 || length < 0 || offset + length > size) throw new RangeError('read past the end');
			const first = chunkAt(offset);
			if (offset + length <= starts[first + 1]!) {
				const view = chunks[first]!.subarray(offset - starts[first]!, offset - starts[first]! + length);
				return view.byteOffset % 8 === 0 ? view : view.slice();
			}
			const out = new Uint8Array(length);
			for (let c = first, at = 0; at < length; c++) {
				const from = offset + at - starts[c]!;
				const piece = chunks[c]!.subarray(from, Math.min(chunks[c]!.length, from + length - at));
				out.set(piece, at);
				at += piece.length;
			}
			return out;
		},
	};
}

/**
 * A section made as it is read rather than held whole (the search part's postings in term order,
 * read from the index's own columns): its length, and `fill` writes its bytes [from, from +
 * into.length) into `into`. The encoder reads it twice — once for its checksums, once to write it.
 */
export interface SectionSource {
	/** Bytes in all. */
	readonly length: number;
	/** Writes bytes [from, from + into.length) into `into` (`from` a multiple of 8). */
	fill(into: Uint8Array, from: number): void;
}

/** A section's bytes: held, or made when read. */
export type SectionBytes = Uint8Array | SectionSource;

/** A piece of an encoded part: bytes, or a section made when read. */
export type PartPiece = SectionBytes;

/** A section's whole bytes (a made one filled into an array of its own). */
export function sectionBytes(section: SectionBytes): Uint8Array {
	if (section instanceof Uint8Array) return section;
	const out = new Uint8Array(section.length);
	section.fill(out, 0);
	return out;
}

/** Bytes a streamed write fills at once from a made section. */
const STREAM_PIECE = 64 * BLOCK; // why: 1 MB: a write call per MB, and the buffer reused throughout.

/**
 * The pieces' bytes one after another: held ones as they are, made ones filled a MB at a time into
 * one buffer — each piece is valid until the next is asked for (a store writes it before).
 */
export function* streamPieces(pieces: readonly PartPiece[]): Generator<Uint8Array, void, void> {
	let buffer: Uint8Array | null = null;
	for (const piece of pieces) {
		if (piece instanceof Uint8Array) {
			yield piece;
			continue;
		}
		buffer ??= new Uint8Array(STREAM_PIECE);
		for (let from = 0; from < piece.length; from += STREAM_PIECE) {
			const view = buffer.subarray(0, Math.min(STREAM_PIECE, piece.length - from));
			piece.fill(view, from);
			yield view;
		}
	}
}

/** What a part holds, as the encoder takes it. */
export interface PartInput {
	/** `search` or `trigrams`. */
	kind: string;
	/** The tool's version and build. */
	tool: string;
	/** Everything that shapes the part (its settings), as one comparable string. */
	settings: string;
	/** The notes (every note of the vault) and the fingerprints the part reflects. */
	stamps: ReadonlyMap<string, NoteFingerprint>;
	/** The part's own sections. */
	sections: Record<string, SectionBytes>;
}

interface PartHeader {
	kind: string;
	tool: string;
	settings: string;
	block: number;
	sections: Record<string, SectionEntry>;
}

/** Encode a part. */
export function encodePart(input: PartInput, utf8: CodecHost): Uint8Array {
	return drain(encodePartSteps(input, utf8));
}

/** `encodePart` in steps: it pauses after each few blocks checksummed or copied (a host's main thread runs it in slices). */
export function* encodePartSteps(input: PartInput, utf8: CodecHost): Generator<void, Uint8Array, void> {
	const chunks = yield* encodePartChunksSteps(input, utf8);
	const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
	let at = 0;
	for (const chunk of chunks) {
		for (let from = 0; from < chunk.length; from += BLOCK * ENCODE_STEP_BLOCKS) {
			const piece = chunk.subarray(from, from + BLOCK * ENCODE_STEP_BLOCKS);
			out.set(piece, at);
			at += piece.length;
			yield;
		}
	}
	return out;
}

/**
 * A part's bytes as consecutive pieces — its header block, then each section as the caller gave
 * it (not copied) and its padding to 8 — for a store that writes pieces one after another: one
 * array of the whole part held ~130 MB more than its sections at 50k notes. Joined, they are the
 * bytes `encodePartSteps` returns. Pauses after each few blocks checksummed.
 */
export function* encodePartChunksSteps(input: PartInput, utf8: CodecHost): Generator<void, Uint8Array[], void> {
	return (yield* encodePartPiecesSteps(input, utf8)).map(sectionBytes);
}

/**
 * `encodePartChunksSteps` with made sections left as they are (see SectionSource): for a store
 * that writes the pieces as `streamPieces` gives them, so such a section is never held whole.
 */
export function* encodePartPiecesSteps(input: PartInput, utf8: CodecHost): Generator<void, PartPiece[], void> {
	let work = 0;
	// The notes' paths and stamps in steps too: at 50k notes, in one go, they held a main thread's save ~80 ms.
	const paths: string[] = [];
	const stamps = new Float64Array(input.stamps.size * STAMP_COLUMNS);
	for (const [path, fp] of input.stamps) {
		const at = paths.length * STAMP_COLUMNS;
		paths.push(path);
		stamps[at] = fp.size;
		stamps[at + 1] = fp.mtimeMs;
		stamps[at + 2] = fp.ctimeMs;
		stamps[at + 3] = fp.ino;
		stamps[at + 4] = fp.racy ? 1 : 0;
		if (paths.length % STAMPS_STEP === 0) yield;
	}
	const sections: [string, SectionBytes][] = [
		['paths', yield* jsonStringsSteps(paths, utf8, new WorkMeter(STAMPS_STEP))],
		['stamps', bytesOf(stamps)],
		...Object.entries(input.sections),
	];
	const table: Record<string, SectionEntry> = {};
	let offset = 0;
	const scratch = new Uint8Array(BLOCK);
	for (const [name, bytes] of sections) {
		const sums: number[] = [];
		for (let at = 0; at < bytes.length; at += BLOCK) {
			sums.push(sumOf(utf8, blockOf(bytes, at, scratch)));
			if (++work >= ENCODE_STEP_BLOCKS) {
				work = 0;
				yield;
			}
		}
		table[name] = [offset, bytes.length, sums];
		offset += Math.ceil(bytes.length / 8) * 8;
	}
	const header = utf8.encode(
		JSON.stringify({
			kind: input.kind,
			tool: input.tool,
			settings: input.settings,
			block: BLOCK,
			sections: table,
		} satisfies PartHeader),
	);
	const base = Math.ceil((4 + header.length) / 8) * 8;
	const head = new Uint8Array(16 + base);
	const view = new DataView(head.buffer);
	view.setUint32(0, MAGIC, true);
	view.setUint32(4, PART_FORMAT_VERSION, true);
	view.setUint32(8, sumOf(utf8, header), true);
	view.setUint32(12, base + offset, true);
	view.setUint32(16, header.length, true);
	head.set(header, 20);
	const chunks: PartPiece[] = [head];
	for (const [, bytes] of sections) {
		if (bytes.length > 0) chunks.push(bytes);
		const padding = Math.ceil(bytes.length / 8) * 8 - bytes.length;
		if (padding > 0) chunks.push(new Uint8Array(padding));
	}
	return chunks;
}

/** Bytes [at, at + BLOCK) of a section (fewer at its end): a view of held bytes, a made section's filled into `scratch`. */
function blockOf(section: SectionBytes, at: number, scratch: Uint8Array): Uint8Array {
	const end = Math.min(section.length, at + BLOCK);
	if (section instanceof Uint8Array) return section.subarray(at, end);
	const view = scratch.subarray(0, end - at);
	section.fill(view, at);
	return view;
}

/** A decoded part: its header and fingerprints read, every other section read and checked when asked for. */
export class DecodedPart {
	/** `search` or `trigrams`. */
	readonly kind: string;
	/** The build that saved it. */
	readonly tool: string;
	/** The settings it was built with. */
	readonly settings: string;
	/** The notes it reflects (index = note number). */
	paths: string[] = [];
	private stamps: Float64Array<ArrayBufferLike> = new Float64Array(0);
	private readonly whole = new Map<string, Uint8Array>();
	/**
	 * The blocks `range` has checked, per section (1: checked): the bytes it reads never change once
	 * read, and a query reads the same blocks again and again (a dictionary block, a note's record) —
	 * checking each again was most of a first search's CPU at 50k notes.
	 */
	private readonly checkedBlocks = new Map<string, Uint8Array>();
	/** A section another reader parsed already (the search part's note paths), for `paths` when it holds the same bytes. */
	private parsed: { name: string; list: readonly unknown[] } | null = null;

	/** Use `decodePart` or `decodePartSteps`. */
	constructor(
		private readonly bytes: SnapshotReader,
		private readonly base: number,
		private readonly header: PartHeader,
		private readonly host: CodecHost,
	) {
		this.kind = header.kind;
		this.tool = header.tool;
		this.settings = header.settings;
	}

	/** Read the paths and the stamps (in steps: their blocks are checked a few at a time); throws SnapshotFormatError when they do not fit. */
	*readStampsSteps(): Generator<void, void, void> {
		try {
			yield* this.stampsSteps();
		} catch (error) {
			if (error instanceof SnapshotFormatError) throw error;
			throw new SnapshotFormatError(
				`part unreadable (${error instanceof Error ? error.message : String(error)})`,
			);
		}
	}

	/**
	 * Section `name` was parsed into `list` (a JSON array) by its reader: `readStampsSteps` takes a
	 * copy for `paths` when both sections hold the same bytes (a search part lists the same notes
	 * twice; parsing 50k paths again cost ~0.1 s of the main thread).
	 */
	lendParsed(name: string, list: readonly unknown[]): void {
		this.parsed = { name, list };
	}

	/** Whether sections `a` and `b` hold the same bytes (their checksums first, then the bytes, in steps). */
	private *sameBytesSteps(a: string, b: string): Generator<void, boolean, void> {
		const [, lengthA, sumsA] = this.entry(a);
		const [, lengthB, sumsB] = this.entry(b);
		if (lengthA !== lengthB || sumsA.some((sum, i) => sum !== sumsB[i])) return false;
		const [x, y] = sameWidth(yield* this.sectionSteps(a), yield* this.sectionSteps(b));
		const step = (this.header.block * ENCODE_STEP_BLOCKS) / x.BYTES_PER_ELEMENT;
		for (let from = 0; from < x.length; from += step) {
			if (!sameRange(x, y, from, Math.min(x.length, from + step))) return false;
			yield;
		}
		return true;
	}

	private *stampsSteps(): Generator<void, void, void> {
		const paths = yield* this.sectionSteps('paths');
		const parsed = this.parsed;
		this.paths =
			parsed !== null && this.has(parsed.name) && (yield* this.sameBytesSteps('paths', parsed.name))
				? (parsed.list.slice() as string[])
				: ((yield* jsonArraySteps(paths, this.host)) as string[]);
		const stamps = yield* this.sectionSteps('stamps');
		this.stamps = new Float64Array(stamps.buffer, stamps.byteOffset, stamps.length / 8);
		if (!Array.isArray(this.paths) || this.stamps.length !== this.paths.length * STAMP_COLUMNS)
			throw new SnapshotFormatError('part: stamps do not match the paths');
	}

	/** The fingerprint note `i` had when the part was built. */
	fingerprint(i: number): NoteFingerprint {
		const c = this.stamps.subarray(i * STAMP_COLUMNS, (i + 1) * STAMP_COLUMNS);
		return { size: c[0]!, mtimeMs: c[1]!, ctimeMs: c[2]!, ino: c[3]!, racy: c[4] === 1 };
	}

	/** Whether note `i` was saved with fingerprint `now` and not racy (`sameFingerprint` without an object per note: 50k at a restart). */
	same(i: number, now: NoteFingerprint): boolean {
		const k = i * STAMP_COLUMNS;
		return this.stamps[k + 4] !== 1 && stampIs(this.stamps, k, now);
	}

	/** Where section `name` lies in the part's bytes: [from, to); throws SnapshotFormatError when absent. */
	span(name: string): [number, number] {
		const [offset, length] = this.entry(name);
		return [16 + this.base + offset, 16 + this.base + offset + length];
	}

	/** Whether the part has a section `name`. */
	has(name: string): boolean {
		return Object.hasOwn(this.header.sections, name);
	}

	/** Length in bytes of section `name`; throws SnapshotFormatError when absent. */
	sectionLength(name: string): number {
		return this.entry(name)[1];
	}

	private entry(name: string): SectionEntry {
		const entry = this.has(name) ? this.header.sections[name] : undefined;
		if (!entry) throw new SnapshotFormatError(`part: missing section ${name}`);
		return entry;
	}

	/** A whole section's bytes, checked (kept for the next ask); throws SnapshotFormatError when absent or damaged. */
	section(name: string): Uint8Array {
		return drain(this.sectionSteps(name));
	}

	/** `section` in steps: read at once, its blocks checked a few at a time (a host's main thread runs it in slices). */
	*sectionSteps(name: string): Generator<void, Uint8Array, void> {
		const kept = this.whole.get(name);
		if (kept !== undefined) return kept;
		const [offset, length, sums] = this.entry(name);
		const block = this.header.block;
		const bytes = this.bytes.read(16 + this.base + offset, length);
		for (let b = 0; b < sums.length; b++) {
			if (sumOf(this.host, bytes.subarray(b * block, Math.min(length, (b + 1) * block))) !== sums[b])
				throw new SnapshotFormatError(`part: block ${b} of ${name} failed its check (damaged)`);
			if ((b + 1) % ENCODE_STEP_BLOCKS === 0) yield;
		}
		this.whole.set(name, bytes);
		return bytes;
	}

	/**
	 * Bytes [from, to) of section `name`: the blocks they lie in are read and checked, nothing
	 * else. The view starts at `from` (aligned as `from` is, within an 8-aligned block). Throws
	 * SnapshotFormatError when out of range or when a block fails its check. `scratch`: see
	 * `SnapshotReader.read` (the caller copies the bytes out before it passes it again).
	 */
	range(name: string, from: number, to: number, scratch?: Uint8Array): Uint8Array {
		let checked = this.checkedBlocks.get(name);
		const entry = this.entry(name);
		if (checked === undefined) this.checkedBlocks.set(name, (checked = new Uint8Array(entry[2].length)));
		const block = this.header.block;
		return checkedRange(this.bytes, 16 + this.base, block, this.host, name, entry, checked, from, to, scratch);
	}

	/** Bytes per checked block: a `range` reads whole blocks (so a scratch for it needs two more). */
	get blockBytes(): number {
		return this.header.block;
	}

	/**
	 * Section `name` read a range at a time (see `range`), every block of it checked now — a few
	 * at a time, nothing kept — so a damaged section is found when loaded, as a whole read finds
	 * it (and, each block checked once, not checked again when read). The reader holds the part's
	 * bytes (an open file) but not this part, nor any section read.
	 */
	rangeReader(name: string): SectionRanges {
		const entry = this.entry(name);
		const { bytes, host } = this;
		const at = 16 + this.base;
		const block = this.header.block;
		const length = entry[1];
		const checked = new Uint8Array(entry[2].length);
		const span = block * ENCODE_STEP_BLOCKS;
		for (let from = 0; from < length; from += span)
			checkedRange(bytes, at, block, host, name, entry, checked, from, Math.min(length, from + span));
		return { length, read: (from, to) => checkedRange(bytes, at, block, host, name, entry, checked, from, to) };
	}
}

/** Decode a part's header and fingerprints; throws SnapshotFormatError for anything unusable. Other sections are checked when read. */
export function decodePart(source: Uint8Array | SnapshotReader, utf8: CodecHost): DecodedPart {
	return drain(decodePartSteps(source, utf8));
}

/**
 * `decodePart` in steps: the fingerprints' blocks are checked a few at a time (a host's main thread
 * runs it in slices). `stamps: false` leaves the paths and stamps unread (`readStampsSteps` reads
 * them later): a host that answers before it compares the part's notes with the vault's.
 */
export function* decodePartSteps(
	source: Uint8Array | SnapshotReader,
	utf8: CodecHost,
	stamps = true,
): Generator<void, DecodedPart, void> {
	const bytes = source instanceof Uint8Array ? memoryPart(source) : source;
	const kind = { magic: MAGIC, version: PART_FORMAT_VERSION, noun: 'index part', prefix: 'part: ' };
	// The preamble, then the header's length.
	const view = checkedPreamble(bytes, kind, 20);
	const headerLength = view.getUint32(16, true);
	if (20 + headerLength > bytes.size) throw new SnapshotFormatError('part: truncated header');
	const headerBytes = bytes.read(20, headerLength);
	if (sumOf(utf8, headerBytes) !== view.getUint32(8, true))
		throw new SnapshotFormatError('part: checksum mismatch (damaged)');
	try {
		const header = JSON.parse(utf8.decode(headerBytes, 0, headerLength)) as PartHeader;
		const base = Math.ceil((4 + headerLength) / 8) * 8;
		if (!(header.block > 0 && header.block % 8 === 0)) throw new SnapshotFormatError('part: bad block size');
		for (const [o, l, sums] of Object.values(header.sections)) {
			if (16 + base + o + l > bytes.size || !Array.isArray(sums) || sums.length !== Math.ceil(l / header.block))
				throw new SnapshotFormatError('part: section out of bounds');
		}
		const part = new DecodedPart(bytes, base, header, utf8);
		if (stamps) yield* part.readStampsSteps();
		return part;
	} catch (error) {
		if (error instanceof SnapshotFormatError) throw error;
		throw new SnapshotFormatError(`part unreadable (${error instanceof Error ? error.message : String(error)})`);
	}
}

/**
 * Where the sections `names` lie in the part `bytes` holds ([from, to) each), read from its header
 * alone (a store that loads those sections' bytes later); [] when the header cannot be read.
 */
export function sectionSpans(bytes: SnapshotReader, utf8: CodecHost, names: readonly string[]): [number, number][] {
	try {
		const part = drain(decodePartSteps(bytes, utf8, false));
		return names.filter((name) => part.has(name)).map((name) => part.span(name));
	} catch {
		return []; // nothing is deferred: the whole part is loaded, and its decoding says what is wrong
	}
}
