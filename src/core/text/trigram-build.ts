/**
 * Builds a trigram index over many notes without holding the main thread or a posting per
 * JavaScript number: notes are indexed a segment at a time (a few thousand notes in a Map, then
 * packed into varint columns), and the segments are merged into one set of columns at the end —
 * most of each posting list is copied as bytes, since a segment's deltas stay valid when its ids
 * are shifted. Work runs in slices of `sliceMs` with a yield between them, so a server keeps
 * answering calls while it builds. The result is a {@link TrigramIndex} over frozen columns, the
 * same form a saved part loads into (and `columns()` hands them back without re-encoding).
 */
import { hostTurn, TimeSlice } from '../steps';
import { indexForm, trigramKey } from './trigram-query';
import { TrigramIndex, type TrigramColumns } from './trigram';
import { VarintWriter } from './trigram-varint';

/** Options of {@link buildTrigramsSliced}; every field has a default. */
export interface SlicedBuildOptions {
	/** Milliseconds of work between yields (default 10). */
	sliceMs?: number;
	/** How to yield to the host (default: `hostTurn`, one turn of its event loop). */
	yieldFn?: () => Promise<void>;
	/** Postings per segment before it is packed (default 2^21: about 40 MB of Map while it fills). */
	segmentPostings?: number;
	/** Stop early (the result is then null): e.g. the server is shutting down. */
	cancelled?: () => boolean;
}

/** A note to index: its path and how to read its text (a rejection leaves the note out: unknown, so scanned). */
export interface NoteToIndex {
	path: string;
	read: () => Promise<string>;
}

/** One packed segment: columns over local ids, with each key's last local id (to chain the next segment's first delta). */
interface Segment {
	keys: Int32Array;
	starts: Uint32Array;
	postings: Uint8Array;
	lasts: Uint32Array;
	/** Global id of local id 0. */
	base: number;
}

/** Length in bytes of the varint at `at`. */
function varintLength(data: Uint8Array, at: number): number {
	let n = 1;
	while (data[at + n - 1]! >= 0x80) n++;
	return n;
}

/** The varint at `at`. */
function varintAt(data: Uint8Array, at: number): number {
	let value = 0;
	let scale = 1;
	for (let i = at; ; i++) {
		value += (data[i]! & 0x7f) * scale;
		if (data[i]! < 0x80) return value;
		scale *= 128;
	}
}

/** Bytes `value` takes as a varint. */
function varintSize(value: number): number {
	let n = 1;
	for (let v = value; v >= 0x80; v = Math.floor(v / 128)) n++;
	return n;
}

/** Writes `value` as a varint at `at`; returns the position after it. */
function putVarint(out: Uint8Array, at: number, value: number): number {
	let v = value;
	let i = at;
	while (v >= 0x80) {
		out[i++] = (v & 0x7f) | 0x80;
		v = Math.floor(v / 128);
	}
	out[i++] = v;
	return i;
}

/** Packs the postings gathered for one segment (local ids, ascending per key). */
async function pack(lists: Map<number, number[]>, base: number, slicer: TimeSlice): Promise<Segment> {
	const keys = Int32Array.from(lists.keys()).sort();
	const starts = new Uint32Array(keys.length + 1);
	const lasts = new Uint32Array(keys.length);
	const out = new VarintWriter();
	for (let i = 0; i < keys.length; i++) {
		const list = lists.get(keys[i]!)!;
		let previous = 0;
		for (const id of list) {
			out.uint(id - previous);
			previous = id;
		}
		starts[i + 1] = out.length;
		lasts[i] = previous;
		if ((i & 1023) === 0) await slicer.pauseIfUsed();
	}
	return { keys, starts, postings: out.finish(), lasts, base };
}

/**
 * One pass of the k-way merge over the segments' keys: calls `emit(key, parts)` per distinct key,
 * ascending, with the segments holding it and the position of the key in each.
 */
async function mergeKeys(
	segments: readonly Segment[],
	slicer: TimeSlice,
	emit: (key: number, parts: [Segment, number][]) => void,
): Promise<void> {
	const cursor = new Uint32Array(segments.length);
	const parts: [Segment, number][] = [];
	for (let n = 0; ; n++) {
		let min = Infinity;
		for (let s = 0; s < segments.length; s++)
			if (cursor[s]! < segments[s]!.keys.length && segments[s]!.keys[cursor[s]!]! < min)
				min = segments[s]!.keys[cursor[s]!]!;
		if (min === Infinity) return;
		parts.length = 0;
		for (let s = 0; s < segments.length; s++) {
			if (cursor[s]! < segments[s]!.keys.length && segments[s]!.keys[cursor[s]!] === min)
				parts.push([segments[s]!, cursor[s]!++]);
		}
		emit(min, parts);
		if ((n & 4095) === 0) await slicer.pauseIfUsed();
	}
}

/** Merges packed segments into one set of columns, sized exactly before it is written (two passes). */
async function merge(segments: readonly Segment[], paths: string[], slicer: TimeSlice): Promise<TrigramColumns> {
	let keyCount = 0;
	let bytes = 0;
	await mergeKeys(segments, slicer, (_key, parts) => {
		keyCount++;
		let previous = 0;
		for (const [seg, i] of parts) {
			const start = seg.starts[i]!;
			const first = varintLength(seg.postings, start);
			bytes +=
				seg.starts[i + 1]! - start - first + varintSize(seg.base + varintAt(seg.postings, start) - previous);
			previous = seg.base + seg.lasts[i]!;
		}
	});
	const keys = new Int32Array(keyCount);
	const starts = new Uint32Array(keyCount + 1);
	const postings = new Uint8Array(bytes);
	let k = 0;
	let at = 0;
	await mergeKeys(segments, slicer, (key, parts) => {
		keys[k] = key;
		let previous = 0;
		for (const [seg, i] of parts) {
			const start = seg.starts[i]!;
			const first = varintLength(seg.postings, start);
			at = putVarint(postings, at, seg.base + varintAt(seg.postings, start) - previous);
			postings.set(seg.postings.subarray(start + first, seg.starts[i + 1]), at);
			at += seg.starts[i + 1]! - start - first;
			previous = seg.base + seg.lasts[i]!;
		}
		starts[++k] = at;
	});
	return { paths, keys, starts, postings };
}

/**
 * A trigram index over `notes`, built in slices (see the module comment); null when `cancelled`
 * said stop. Notes whose read fails are left out (unknown to the index, so every grep scans them).
 */
export async function buildTrigramsSliced(
	notes: Iterable<NoteToIndex>,
	options: SlicedBuildOptions = {},
): Promise<TrigramIndex | null> {
	const slicer = new TimeSlice(options.sliceMs ?? 10, options.yieldFn ?? hostTurn, Date.now);
	const limit = options.segmentPostings ?? 1 << 21;
	const cancelled = options.cancelled ?? (() => false);
	const paths: string[] = [];
	const segments: Segment[] = [];
	let lists = new Map<number, number[]>();
	let base = 0;
	let held = 0;
	for (const note of notes) {
		if (cancelled()) return null;
		let text: string;
		try {
			text = await note.read();
		} catch {
			continue;
		}
		const local = paths.length - base;
		paths.push(note.path);
		const form = indexForm(text);
		// Each distinct key once per note: the last id pushed to a list is this note's when it already holds the key.
		for (let i = 0; i + 3 <= form.length; i++) {
			const key = trigramKey(form, i);
			const list = lists.get(key);
			if (list === undefined) lists.set(key, [local]);
			else if (list[list.length - 1] !== local) list.push(local);
			else continue;
			held++;
		}
		if (held >= limit) {
			segments.push(await pack(lists, base, slicer));
			lists = new Map();
			base = paths.length;
			held = 0;
		}
		await slicer.pauseIfUsed();
	}
	if (lists.size > 0) segments.push(await pack(lists, base, slicer));
	lists = new Map();
	if (cancelled()) return null;
	return TrigramIndex.fromColumns(await merge(segments, paths, slicer));
}
