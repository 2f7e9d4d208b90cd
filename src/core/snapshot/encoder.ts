/**
 * The snapshot's encoder, note by note: `add` each note in order as it is known, `finish` once.
 * A build from scratch feeds it each note as the note is parsed, so no whole-vault metadata is
 * ever held (a note's parsed objects die young; what is kept is the encoded bytes and columns);
 * `encodeSnapshotChunks` (codec.ts) feeds it a whole input. The bytes are the same either way.
 */
import type { CachedMetadata } from '../metadata';
import { getAllTags } from '../obsidian-rules';
import { bytesOf, frameChunks, U32Builder } from './bytes';
import { HeapWriter } from './heap-writer';
import {
	CarriedNote,
	EncodedMetadata,
	FLAG_INDEXED,
	FLAG_RACY,
	MAGIC,
	NOTE_COLUMNS,
	SNAPSHOT_FORMAT_VERSION,
	SnapshotFormatError,
	type CarriedHeaps,
	type SnapshotInput,
	type SnapshotNote,
} from './codec-format';
import { encodeMetadata, isHot, RANGE_WIDTH } from './metadata-codec';
import type { CodecHost } from './port';
import { StringListsWriter } from './string-lists';

/** A note's frontmatter's own keys. */
function keysOf(metadata: CachedMetadata): string[] {
	const fm: unknown = metadata.frontmatter;
	return fm !== null && typeof fm === 'object' ? Object.keys(fm) : [];
}

/** Bytes a heap chunk holds at least: a 50k-note heap is a few dozen chunks, none copied to grow. */
const HEAP_CHUNK = 4 << 20;

/** What an encoder is made for: the vault's files, how many notes will be added, and the carried heaps if any. */
export interface EncoderPlan {
	files: readonly string[];
	notes: number;
	/** Bytes of Markdown whose metadata will be encoded fresh (sizes the first heap chunks), 0 when not known. */
	freshMarkdown?: number;
	carry?: CarriedHeaps;
	/** Bytes a heap chunk holds at least (default HEAP_CHUNK; tests make it small). */
	chunkBytes?: number;
}

/** The links of one note as the encoder takes them (see `SnapshotNote.resolvedPairs` for the saved form). */
export interface NoteLinks {
	resolved?: Readonly<Record<string, number>>;
	unresolved?: Record<string, number>;
}

/** Encodes a snapshot note by note (see the module comment). */
export class SnapshotEncoder {
	private readonly fileIndex = new Map<string, number>();
	private readonly columns: Float64Array;
	private readonly errors: [number, string | null, string | null][] = [];
	private readonly noteRanges: Uint32Array;
	private readonly ranges: U32Builder;
	private readonly meta: HeapWriter;
	private readonly cold: HeapWriter;
	private readonly resolvedIndex: Uint32Array;
	private readonly pairs: U32Builder;
	private readonly unresolved: [number, Record<string, number>][] = [];
	private readonly keys: StringListsWriter;
	private readonly tags: StringListsWriter;
	/** Offsets of appended bytes count from the start of the whole heap: after the carried heaps, if any. */
	private readonly hotBase: number;
	private readonly coldBase: number;
	private added = 0;

	/** An encoder for `plan.notes` notes over `plan.files`. */
	constructor(
		private readonly plan: EncoderPlan,
		private readonly utf8: CodecHost,
	) {
		plan.files.forEach((f, i) => this.fileIndex.set(f, i));
		const n = plan.notes;
		this.columns = new Float64Array(n * NOTE_COLUMNS);
		this.noteRanges = new Uint32Array(n + 1);
		this.ranges = new U32Builder(n * 32);
		this.resolvedIndex = new Uint32Array(n + 1);
		this.pairs = new U32Builder(n * 16);
		this.keys = new StringListsWriter(n);
		this.tags = new StringListsWriter(n);
		this.hotBase = plan.carry?.hot.length ?? 0;
		this.coldBase = plan.carry?.cold.length ?? 0;
		// The heaps come to ~5 % and ~47 % of the Markdown on i18n and at 50k.
		const markdown = plan.freshMarkdown ?? 0;
		const chunk = plan.chunkBytes ?? HEAP_CHUNK;
		this.meta = new HeapWriter(Math.ceil(markdown * 0.06), chunk);
		this.cold = new HeapWriter(Math.ceil(markdown * 0.5), chunk);
	}

	/** Notes added so far. */
	get count(): number {
		return this.added;
	}

	/** Adds the next note; `links` are its link-map entries (unused when the note carries its saved pairs). */
	add(note: SnapshotNote, links: NoteLinks = {}): void {
		const i = this.added;
		if (i >= this.plan.notes) throw new SnapshotFormatError('more notes than planned');
		const file = this.fileIndex.get(note.path);
		if (file === undefined) throw new SnapshotFormatError(`note not among the files: ${note.path}`);
		const fp = note.fingerprint;
		const at = i * NOTE_COLUMNS;
		this.columns[at] = file;
		this.columns[at + 1] = fp.size;
		this.columns[at + 2] = fp.mtimeMs;
		this.columns[at + 3] = fp.ctimeMs;
		this.columns[at + 4] = fp.ino;
		this.columns[at + 5] = (fp.racy ? FLAG_RACY : 0) | (note.metadata !== null ? FLAG_INDEXED : 0);
		if (note.frontmatterError !== null || note.skipReason !== null)
			this.errors.push([i, note.frontmatterError, note.skipReason]);
		if (note.metadata !== null) {
			this.addMetadata(note.metadata);
			this.addLinks(i, note, links);
		} else {
			this.keys.add([]);
			this.tags.add([]);
		}
		this.noteRanges[i + 1] = this.ranges.length / RANGE_WIDTH;
		this.resolvedIndex[i + 1] = this.pairs.length / 2;
		this.added++;
	}

	/** One note's fields, keys and tags. */
	private addMetadata(metadata: NonNullable<SnapshotNote['metadata']>): void {
		const { ranges } = this;
		if (metadata instanceof CarriedNote) {
			const carry = this.plan.carry;
			if (!carry) throw new SnapshotFormatError('a carried note without carried heaps');
			ranges.append(carry.ranges(metadata.index));
			this.keys.add(carry.keys(metadata.index));
			this.tags.add(carry.tags(metadata.index));
		} else if (metadata instanceof EncodedMetadata) {
			const hotAt = this.hotBase + this.meta.bytes(metadata.hot);
			const coldAt = this.coldBase + this.cold.bytes(metadata.cold);
			for (let r = 0; r < metadata.ranges.length; r += RANGE_WIDTH) {
				const base = isHot(metadata.ranges[r]!) ? hotAt : coldAt;
				ranges.push(
					metadata.ranges[r]!,
					metadata.ranges[r + 1]! + base,
					metadata.ranges[r + 2]! + base,
					metadata.ranges[r + 3],
				);
			}
			this.keys.add(metadata.keys);
			this.tags.add(metadata.tags);
		} else {
			encodeMetadata(metadata, (code, json) => {
				const hot = isHot(code);
				const heap = hot ? this.meta : this.cold;
				const start = heap.length;
				const check = heap.text(json, this.utf8);
				const base = hot ? this.hotBase : this.coldBase;
				ranges.push(code, base + start, base + heap.length, check);
			});
			this.keys.add(keysOf(metadata));
			this.tags.add(getAllTags(metadata));
		}
	}

	/** One indexed note's resolved pairs and unresolved links. */
	private addLinks(i: number, note: SnapshotNote, links: NoteLinks): void {
		if (note.resolvedPairs) {
			this.pairs.append(note.resolvedPairs);
		} else {
			for (const [dest, count] of Object.entries(links.resolved ?? {})) {
				const d = this.fileIndex.get(dest);
				if (d === undefined) throw new SnapshotFormatError(`link destination not among the files: ${dest}`);
				this.pairs.push(d, count);
			}
		}
		const misses = note.unresolved ?? links.unresolved;
		if (misses && Object.keys(misses).length > 0) this.unresolved.push([i, misses]);
	}

	/** The framed chunks to write one after another; `extra` sections are stored as given. */
	finish(header: SnapshotInput['header'], extra: Record<string, Uint8Array> = {}): Uint8Array[] {
		if (this.added !== this.plan.notes) throw new SnapshotFormatError('fewer notes than planned');
		const { files, carry } = this.plan;
		const utf8 = this.utf8;
		const ranges = this.ranges.finish();
		const sections: [string, Uint8Array][] = [
			['files', utf8.encode(JSON.stringify(files))],
			['notes', bytesOf(this.columns)],
			['noteErrors', utf8.encode(JSON.stringify(this.errors))],
			['noteRanges', bytesOf(this.noteRanges)],
			['ranges', bytesOf(ranges)],
			['resolvedIndex', bytesOf(this.resolvedIndex)],
			['resolved', bytesOf(this.pairs.finish())],
			['unresolved', utf8.encode(JSON.stringify(this.unresolved))],
			...listSections('key', this.keys, utf8),
			...listSections('tag', this.tags, utf8),
			...Object.entries(extra),
		];
		const hot = carry ? [carry.hot, ...this.meta.finish()] : this.meta.finish();
		const coldHeap = carry ? [carry.cold, ...this.cold.finish()] : this.cold.finish();
		const heapBytes = this.hotBase + this.meta.length + this.coldBase + this.cold.length;
		let live = 0;
		for (let r = 0; r < ranges.length; r += RANGE_WIDTH) live += Math.max(0, ranges[r + 2]! - ranges[r + 1]!);
		const framed = {
			...header,
			notes: this.plan.notes,
			files: files.length,
			heapBytes,
			garbageBytes: heapBytes - live,
		};
		return frameChunks(
			MAGIC,
			SNAPSHOT_FORMAT_VERSION,
			framed,
			[...sections, ['meta', hot], ['metaCold', coldHeap]],
			utf8,
			2,
		);
	}
}

/** The three sections of a set of per-note lists. */
function listSections(kind: string, writer: StringListsWriter, utf8: CodecHost): [string, Uint8Array][] {
	const { names, index, ids } = writer.finish();
	return [
		[`${kind}Names`, utf8.encode(names)],
		[`${kind}Index`, index],
		[`${kind}Ids`, ids],
	];
}
