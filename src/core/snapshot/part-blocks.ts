/**
 * A saved part's sections read in blocks, each checked against its checksum once: the reads
 * `DecodedPart.range` and its range readers (part-codec.ts) make.
 */
import { checksum } from './bytes';
import { SnapshotFormatError } from './codec';
import type { CodecHost, SnapshotReader } from './port';

/** A section's place in the body (after the header) and its block checksums. */
export type SectionEntry = [offset: number, length: number, sums: number[]];

/** A block's checksum, by the host's function when it has one. */
export function sumOf(host: CodecHost, bytes: Uint8Array): number {
	return (host.checksum ?? checksum)(bytes) >>> 0;
}

/** A section's bytes read a range at a time where they are kept (a part's file). */
export interface SectionRanges {
	/** Bytes in all. */
	readonly length: number;
	/** Bytes [from, to), checked; throws SnapshotFormatError when out of range or damaged. */
	read(from: number, to: number): Uint8Array;
}

/**
 * `DecodedPart.range` over the part's `bytes` whose body starts at `at`; `checked` marks the blocks
 * checked already (each is checked once); `scratch` as `SnapshotReader.read` takes it.
 */
export function checkedRange(
	bytes: SnapshotReader,
	at: number,
	block: number,
	host: CodecHost,
	name: string,
	[offset, length, sums]: SectionEntry,
	checked: Uint8Array,
	from: number,
	to: number,
	scratch?: Uint8Array,
): Uint8Array {
	if (from < 0 || to > length || from > to) throw new SnapshotFormatError(`part: a read past the end of ${name}`);
	const first = Math.floor(from / block);
	const last = to > from ? Math.ceil(to / block) : first;
	const start = first * block;
	const end = Math.min(length, last * block);
	const read = bytes.read(at + offset + start, end - start, scratch);
	for (let b = first; b < last; b++) {
		if (checked[b] === 1) continue;
		const i = b * block - start;
		if (sumOf(host, read.subarray(i, Math.min(end - start, i + block))) !== sums[b])
			throw new SnapshotFormatError(`part: block ${b} of ${name} failed its check (damaged)`);
		checked[b] = 1;
	}
	return read.subarray(from - start, to - start);
}

/** Two sections of one length as 4-byte words when both lie aligned (a quarter of the comparisons), else as bytes. */
export function sameWidth(x: Uint8Array, y: Uint8Array): [Uint8Array, Uint8Array] | [Int32Array, Int32Array] {
	if (x.length % 4 !== 0 || x.byteOffset % 4 !== 0 || y.byteOffset % 4 !== 0) return [x, y];
	return [new Int32Array(x.buffer, x.byteOffset, x.length / 4), new Int32Array(y.buffer, y.byteOffset, y.length / 4)];
}

/**
 * Whether `x` and `y` agree over [from, to): a plain function, kept out of the generator that calls
 * it (the engine optimizes a generator's own loops less).
 */
export function sameRange(x: ArrayLike<number>, y: ArrayLike<number>, from: number, to: number): boolean {
	for (let i = from; i < to; i++) if (x[i] !== y[i]) return false;
	return true;
}
