/**
 * Records (JSON strings) encoded one after another as they are made, into chunks of bytes, with
 * their byte offsets: the `<name>Text` and `<name>Offsets` sections of a saved search part. Each
 * string is encoded the moment it is made and dropped: a save that held every note's record as a
 * string (~50k at 50k notes) until the end kept tens of MB of young strings alive, and the
 * collections that copied them held a browser's main thread 30–60 ms each. Chunks, not one
 * doubling buffer: a doubling copied up to the whole text in one step.
 */
import { HeapWriter } from './heap-writer';
import { lastAtOrBelow, type SectionBytes, type SectionSource } from './part-codec';
import type { CodecHost } from './port';

/** Bytes of a chunk (a record longer than a chunk can hold gets one of its own). */
const CHUNK_BYTES = 1 << 20;

/** The records added so far, as `<name>Text` and `<name>Offsets` (see the module comment). */
export class RecordText {
	private readonly text: HeapWriter;
	private readonly offsets: Uint32Array;
	private added = 0;

	/** `count`: how many records will be added; `chunkBytes`: a chunk's size. */
	constructor(
		count: number,
		private readonly utf8: CodecHost,
		chunkBytes = CHUNK_BYTES,
	) {
		this.text = new HeapWriter(0, chunkBytes);
		this.offsets = new Uint32Array(count + 1);
	}

	/** Encode `record` after the ones before it. */
	add(record: string): void {
		if (this.added >= this.offsets.length - 1) throw new RangeError('more records than counted');
		this.text.write(record, this.utf8);
		this.offsets[++this.added] = this.text.length;
	}

	/** The two sections, `<name>Text` and `<name>Offsets`, once every counted record is added. */
	sections(name: string): Record<string, SectionBytes> {
		if (this.added !== this.offsets.length - 1) throw new RangeError('fewer records than counted');
		const chunks = this.text.finish();
		return {
			[`${name}Text`]:
				chunks.length === 0 ? new Uint8Array(0) : chunks.length === 1 ? chunks[0]! : joined(chunks),
			[`${name}Offsets`]: new Uint8Array(this.offsets.buffer),
		};
	}
}

/** Chunks laid end to end as one section, filled when read (no copy of the whole). */
function joined(chunks: readonly Uint8Array[]): SectionSource {
	const starts: number[] = [0];
	for (const chunk of chunks) starts.push(starts[starts.length - 1]! + chunk.length);
	return {
		length: starts[chunks.length]!,
		fill(into, from) {
			let c = lastAtOrBelow(starts, chunks.length, from);
			for (let done = 0; done < into.length && c < chunks.length; c++) {
				const at = from + done - starts[c]!;
				const piece = chunks[c]!.subarray(at, at + into.length - done);
				into.set(piece, done);
				done += piece.length;
			}
		},
	};
}
