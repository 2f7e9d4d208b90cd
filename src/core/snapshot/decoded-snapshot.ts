/**
 * Reading a snapshot (layout in `codec.ts`). A warm call reads the preamble, the header and the
 * checked columns — about a tenth of the file — and verifies their checksum. Metadata is read when
 * a query asks for it: the hot heap (frontmatter, its links, tags; ~5% of the metadata) whole on
 * first use, the cold heap (body links, embeds, headings) one field at a time, or whole once many
 * fields were asked for. Each read is a system call, and system calls are dear here (~5–20 µs
 * each on the machines measured): a `tag` call no longer reads 15 MB to answer from 300 kB.
 */
import type { CachedMetadata } from '../metadata';
import { checksum, fieldCheck } from './bytes';
import {
	checkedPreamble,
	EncodedMetadata,
	FLAG_INDEXED,
	FLAG_RACY,
	MAGIC,
	NOTE_COLUMNS,
	setOwn,
	SNAPSHOT_FORMAT_VERSION,
	SnapshotFormatError,
	type CarriedHeaps,
	type NoteFingerprint,
	type SnapshotHeader,
} from './codec-format';
import { isHot, RANGE_WIDTH } from './metadata-codec';
import { stampIs } from './stamp';
import type { CodecHost, SnapshotReader } from './port';
import { storedMetadata, type FieldStore, type FromDisk } from './stored-metadata';
import { StringLists } from './string-lists';

/** Fields read one by one from the cold heap before it is read whole (a query that reads most notes' body links pays one read, not thousands). */
const PIECEMEAL_FIELDS = 500;

/** One metadata heap: where it is in the file, and its bytes once read whole. */
interface Heap {
	offset: number;
	length: number;
	bytes: Uint8Array | null;
}

/** The header as stored: the saved facts plus where each section is. */
type StoredHeader = SnapshotHeader & { sections: Record<string, [number, number]>; checkedTo?: number };

/** Bytes in memory as a reader (no copy). */
export function memoryReader(bytes: Uint8Array): SnapshotReader {
	return { size: bytes.length, read: (offset, length) => bytes.subarray(offset, offset + length) };
}

/** The body length after checking magic and version against the file's size. */
function checkPreamble(reader: SnapshotReader): number {
	const kind = { magic: MAGIC, version: SNAPSHOT_FORMAT_VERSION, noun: 'snapshot', prefix: '' };
	return checkedPreamble(reader, kind).getUint32(12, true);
}

/** The header and where the sections start, read from the body's first bytes. */
function readHeader(
	reader: SnapshotReader,
	bodyLength: number,
	utf8: CodecHost,
): { header: StoredHeader; base: number } {
	if (bodyLength < 4) throw new SnapshotFormatError('truncated header');
	const lengthBytes = reader.read(16, 4);
	const length = new DataView(lengthBytes.buffer, lengthBytes.byteOffset, 4).getUint32(0, true);
	if (4 + length > bodyLength) throw new SnapshotFormatError('truncated header');
	const bytes = reader.read(20, length);
	const header = JSON.parse(utf8.decode(bytes, 0, bytes.length)) as StoredHeader;
	if (
		header === null ||
		typeof header !== 'object' ||
		header.sections === null ||
		typeof header.sections !== 'object'
	)
		throw new SnapshotFormatError('no section table');
	return { header, base: Math.ceil((4 + length) / 8) * 8 };
}

/** Only the header, for `index --status` (no checksum pass over the body). */
export function peekSnapshotHeader(bytes: Uint8Array, utf8: CodecHost): SnapshotHeader {
	const reader = memoryReader(bytes);
	return readHeader(reader, checkPreamble(reader), utf8).header;
}

/** A decoded snapshot: columns are views into the checked bytes; metadata and link maps decode on demand. */
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
	private readonly resolvedIndex: Uint32Array;
	private readonly resolved: Uint32Array;
	private readonly keys: StringLists;
	private readonly tags: StringLists;
	private readonly sections: Record<string, [number, number]>;
	private unresolved: Map<number, Record<string, number>> | null = null;
	private readonly hot: Heap;
	private readonly cold: Heap;
	private readonly fields: FieldStore;
	private piecemeal = 0;
	/** Fields read one by one before the cold heap is read whole (never, for a lean reader). */
	private readonly wholeAfter: number;

	/** Use `decodeSnapshot` or `decodeSnapshotFrom`. */
	constructor(
		/** The checked part of the body (header and columns). */
		private readonly body: Uint8Array,
		stored: { header: StoredHeader; base: number },
		/** Reads `length` bytes at `offset` of the file. */
		private readonly readAt: (offset: number, length: number) => Uint8Array,
		bodyLength: number,
		private readonly utf8: CodecHost,
		private readonly lean = false,
	) {
		const { header, base } = stored;
		this.wholeAfter = lean ? Infinity : PIECEMEAL_FIELDS;
		this.header = header;
		this.sections = {};
		for (const [k, [o, l]] of Object.entries(header.sections)) {
			if (!(o >= 0 && l >= 0 && base + o + l <= (k === 'meta' || k === 'metaCold' ? bodyLength : body.length)))
				throw new SnapshotFormatError('section out of bounds');
			this.sections[k] = [base + o, l];
		}
		this.files = JSON.parse(this.text('files')) as string[];
		this.columns = this.view('notes', Float64Array);
		if (!Array.isArray(this.files) || this.columns.length !== header.notes * NOTE_COLUMNS)
			throw new SnapshotFormatError('note columns do not match the header');
		this.notePaths = new Array<string>(header.notes);
		for (let i = 0; i < header.notes; i++) {
			const path = this.files[this.columns[i * NOTE_COLUMNS]!];
			if (path === undefined) throw new SnapshotFormatError('note refers to a missing file');
			this.notePaths[i] = path;
		}
		for (const [i, fe, sr] of JSON.parse(this.text('noteErrors')) as [number, string | null, string | null][])
			this.errors.set(i, [fe, sr]);
		this.noteRanges = this.view('noteRanges', Uint32Array);
		this.ranges = this.view('ranges', Uint32Array);
		this.resolvedIndex = this.view('resolvedIndex', Uint32Array);
		this.resolved = this.view('resolved', Uint32Array);
		if (this.noteRanges.length !== header.notes + 1 || this.resolvedIndex.length !== header.notes + 1)
			throw new SnapshotFormatError('index columns do not match the header');
		if (
			this.noteRanges[header.notes]! * RANGE_WIDTH > this.ranges.length ||
			this.resolvedIndex[header.notes]! * 2 > this.resolved.length
		)
			throw new SnapshotFormatError('index columns out of bounds');
		this.keys = this.lists('key', header.notes);
		this.tags = this.lists('tag', header.notes);
		this.hot = this.heap('meta');
		this.cold = this.heap('metaCold');
		this.fields = {
			ranges: this.ranges,
			piece: (r) => this.piece(r),
			decode: (b, s, e) => utf8.decode(b, s, e),
			check: fieldCheck,
		};
	}

	private heap(name: string): Heap {
		const where = this.sections[name];
		if (!where) throw new SnapshotFormatError(`missing section ${name}`);
		return { offset: 16 + where[0], length: where[1], bytes: null };
	}

	/** A checked section's bytes, or null when absent. */
	section(name: string): Uint8Array | null {
		return this.sections[name] && name !== 'meta' && name !== 'metaCold' ? this.bytes(name) : null;
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

	private view<T extends Uint32Array | Float64Array>(
		name: string,
		Kind: { new (buffer: ArrayBufferLike, offset: number, length: number): T; BYTES_PER_ELEMENT: number },
	): T {
		const b = this.bytes(name);
		if (b.length % Kind.BYTES_PER_ELEMENT !== 0)
			throw new SnapshotFormatError(`section ${name} is not a whole column`);
		return new Kind(b.buffer, b.byteOffset, b.length / Kind.BYTES_PER_ELEMENT);
	}

	private lists(kind: string, notes: number): StringLists {
		try {
			return new StringLists(
				JSON.parse(this.text(`${kind}Names`)) as string[],
				this.view(`${kind}Index`, Uint32Array),
				this.view(`${kind}Ids`, Uint32Array),
				notes,
			);
		} catch (error) {
			if (error instanceof RangeError) throw new SnapshotFormatError(`${kind} lists: ${error.message}`);
			throw error;
		}
	}

	/** A heap's bytes, read whole once. */
	private whole(heap: Heap): Uint8Array {
		heap.bytes ??= this.readAt(heap.offset, heap.length);
		return heap.bytes;
	}

	/**
	 * A lean reader lets go of the cold heap a save read whole (why: a server lives on after its
	 * start's save, and at 50k notes that heap is ~120 MB that queries read a field at a time).
	 */
	afterSave(): void {
		if (this.lean) this.cold.bytes = null;
	}

	/**
	 * The bytes of the field at quadruple `r`, or null when its range is out of bounds or cannot be
	 * read (it then fails its check and is taken from the note on disk).
	 */
	private piece(r: number): Uint8Array | null {
		const heap = isHot(this.ranges[r]!) ? this.hot : this.cold;
		const start = this.ranges[r + 1]!;
		const end = this.ranges[r + 2]!;
		if (start > end || end > heap.length) return null;
		try {
			if (heap.bytes === null && (heap === this.hot || ++this.piecemeal > this.wholeAfter)) this.whole(heap);
			return heap.bytes !== null
				? heap.bytes.subarray(start, end)
				: this.readAt(heap.offset + start, end - start);
		} catch {
			return null;
		}
	}

	/** The fingerprint of note `i`. */
	fingerprint(i: number): NoteFingerprint {
		const c = this.columns;
		const k = i * NOTE_COLUMNS;
		return {
			size: c[k + 1]!,
			mtimeMs: c[k + 2]!,
			ctimeMs: c[k + 3]!,
			ino: c[k + 4]!,
			racy: (c[k + 5]! & FLAG_RACY) !== 0,
		};
	}

	/** Whether note `i` was saved with fingerprint `now` and not racy (`sameFingerprint` without an object). */
	same(i: number, now: NoteFingerprint, racyOk = false): boolean {
		const c = this.columns;
		const k = i * NOTE_COLUMNS;
		return (racyOk || (c[k + 5]! & FLAG_RACY) === 0) && stampIs(c, k + 1, now);
	}

	/** Note `i`'s frontmatter error and skip reason. */
	problems(i: number): [string | null, string | null] {
		return this.errors.get(i) ?? [null, null];
	}

	/** Whether note `i` was indexed (has metadata and link-map entries). */
	indexed(i: number): boolean {
		return (this.columns[i * NOTE_COLUMNS + 5]! & FLAG_INDEXED) !== 0;
	}

	/**
	 * Note `i`'s metadata, or null when it was skipped. Fields decode from their own bytes when
	 * read; `fromDisk` gives the fields not stored and those whose bytes are damaged (see metadata-codec).
	 */
	metadata(i: number, fromDisk: FromDisk): CachedMetadata | null {
		if (!this.indexed(i)) return null;
		return storedMetadata(
			this.fields,
			RANGE_WIDTH * this.noteRanges[i]!,
			RANGE_WIDTH * this.noteRanges[i + 1]!,
			fromDisk,
		);
	}

	/** True when note `i`'s frontmatter has no own key `key` (from the saved key lists). */
	lacksKey(i: number, key: string): boolean {
		return !this.indexed(i) || !this.keys.has(i, key);
	}

	/** Note `i`'s frontmatter keys as saved; null when the note was skipped. */
	keysOf(i: number): string[] | null {
		return this.indexed(i) ? this.keys.of(i) : null;
	}

	/** Note `i`'s tags as `getAllTags` gives them, from the saved tag lists; null when the note was skipped. */
	allTags(i: number): string[] | null {
		return this.indexed(i) ? this.tags.of(i) : null;
	}

	/** Note `i`'s metadata still encoded, to carry into the next snapshot without decoding (both heaps are read whole); null when skipped. */
	encodedMetadata(i: number): EncodedMetadata | null {
		if (!this.indexed(i)) return null;
		const from = RANGE_WIDTH * this.noteRanges[i]!;
		const to = RANGE_WIDTH * this.noteRanges[i + 1]!;
		const ranges = Array.from(this.ranges.subarray(from, to));
		const spans = { hot: [Infinity, 0], cold: [Infinity, 0] };
		for (let r = 0; r < ranges.length; r += RANGE_WIDTH) {
			const span = isHot(ranges[r]!) ? spans.hot : spans.cold;
			span[0] = Math.min(span[0]!, ranges[r + 1]!);
			span[1] = Math.max(span[1]!, ranges[r + 2]!);
		}
		const cut = (heap: Heap, span: number[]): Uint8Array => {
			if (span[0] === Infinity) return new Uint8Array(0);
			const bytes = this.whole(heap);
			// A damaged range is carried as it is (clamped): it still fails its check when read.
			span[0] = Math.min(span[0]!, bytes.length);
			return bytes.subarray(span[0], Math.min(Math.max(span[1]!, span[0]), bytes.length));
		};
		const hot = cut(this.hot, spans.hot);
		const cold = cut(this.cold, spans.cold);
		for (let r = 0; r < ranges.length; r += RANGE_WIDTH) {
			const start = isHot(ranges[r]!) ? spans.hot[0]! : spans.cold[0]!;
			ranges[r + 1]! -= Math.min(start, ranges[r + 1]!);
			ranges[r + 2]! -= Math.min(start, ranges[r + 2]!);
		}
		return new EncodedMetadata(hot, cold, ranges, this.keys.of(i), this.tags.of(i));
	}

	/**
	 * Both heaps whole, for the next snapshot to carry (kept notes keep their ranges); null when
	 * too much of them is garbage already (`maxGarbage`, a fraction): the next save writes them afresh.
	 */
	carried(maxGarbage: number): CarriedHeaps | null {
		const garbage = this.header.garbageBytes ?? Infinity;
		if (!(garbage <= maxGarbage * this.hot.length + maxGarbage * this.cold.length)) return null;
		return {
			hot: this.whole(this.hot),
			cold: this.whole(this.cold),
			ranges: (i) =>
				this.ranges.subarray(RANGE_WIDTH * this.noteRanges[i]!, RANGE_WIDTH * this.noteRanges[i + 1]!),
			keys: (i) => this.keys.of(i),
			tags: (i) => this.tags.of(i),
		};
	}

	/** The (file index, count) pairs of note `i`'s resolved links are `resolvedPair(p)` for p in [from, to). */
	resolvedSpan(i: number): [number, number] {
		return [this.resolvedIndex[i]!, this.resolvedIndex[i + 1]!];
	}

	/** Note `i`'s resolved links as saved: (file index, count) pairs into `files`. */
	resolvedPairs(i: number): Uint32Array {
		return this.resolved.subarray(2 * this.resolvedIndex[i]!, 2 * this.resolvedIndex[i + 1]!);
	}

	/** Destination file index of resolved-link pair `p`. */
	resolvedDest(p: number): number {
		return this.resolved[2 * p]!;
	}

	/** Note `i`'s resolved links as destination → count (insertion order kept). */
	resolvedOf(i: number): Record<string, number> {
		const out: Record<string, number> = {};
		for (let p = this.resolvedIndex[i]!; p < this.resolvedIndex[i + 1]!; p++)
			setOwn(out, this.files[this.resolved[2 * p]!]!, this.resolved[2 * p + 1]);
		return out;
	}

	/** Unresolved links of every note that has some, by note number (parsed once). */
	unresolvedByNote(): Map<number, Record<string, number>> {
		this.unresolved ??= new Map(JSON.parse(this.text('unresolved')) as [number, Record<string, number>][]);
		return this.unresolved;
	}
}

/** How a snapshot read through a reader is kept. */
export interface DecodeOptions {
	/** A long-lived reader (a server): the cold heap is read a field at a time however many are read, never held whole. */
	lean?: boolean;
}

/**
 * Decode and verify a snapshot read through `reader`: the preamble, header and checked columns
 * now (checksum verified), the metadata when read. Throws SnapshotFormatError for anything unusable.
 */
export function decodeSnapshotFrom(
	reader: SnapshotReader,
	utf8: CodecHost,
	options: DecodeOptions = {},
): DecodedSnapshot {
	try {
		const bodyLength = checkPreamble(reader);
		const stored = readHeader(reader, bodyLength, utf8);
		const checkedTo = stored.header.checkedTo;
		if (typeof checkedTo !== 'number' || !(checkedTo >= 0) || stored.base + checkedTo > bodyLength)
			throw new SnapshotFormatError('checksum range out of bounds');
		// Typed views need 8-byte alignment relative to the buffer; a pooled or offset read may not give it.
		let body = reader.read(16, stored.base + checkedTo);
		if (body.byteOffset % 8 !== 0) body = body.slice();
		const pre = reader.read(8, 4);
		// The header was read before it was verified, but it lies inside what is verified here, so a damaged header fails now (or failed to parse) and is never trusted.
		if ((utf8.checksum ?? checksum)(body) !== new DataView(pre.buffer, pre.byteOffset, 4).getUint32(0, true))
			throw new SnapshotFormatError('checksum mismatch (damaged)');
		return new DecodedSnapshot(
			body,
			stored,
			(offset, length) => reader.read(offset, length),
			bodyLength,
			utf8,
			options.lean === true,
		);
	} catch (error) {
		if (error instanceof SnapshotFormatError) throw error;
		throw new SnapshotFormatError(`unreadable (${error instanceof Error ? error.message : String(error)})`);
	}
}

/** Decode and verify a snapshot held in memory; throws SnapshotFormatError for anything unusable. */
export function decodeSnapshot(bytes: Uint8Array, utf8: CodecHost): DecodedSnapshot {
	return decodeSnapshotFrom(memoryReader(bytes.byteOffset % 8 === 0 ? bytes : bytes.slice()), utf8);
}
