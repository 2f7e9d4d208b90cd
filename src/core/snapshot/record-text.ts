/**
 * Records (JSON strings) encoded one after another as they are made, into chunks of bytes, with
 * their byte offsets: the `<name>Text` and `<name>Offsets` sections of a saved search part. Each
 * string is encoded the moment it is made and dropped: a save that held every note's record as a
 * string (~50k at 50k notes) until the end kept tens of MB of young strings alive, and the
 * collections that copied them held a browser's main thread 30–60 ms each. Chunks, not one
 * doubling buffer: a doubling copied up to the whole text in one step.
 */
import { lastAtOrBelow, type SectionBytes, type SectionSource } from './part-codec';
import type { CodecHost } from './port';

/** Bytes of a chunk (a record longer than a chunk can hold gets one of its own). */
const CHUNK_BYTES = 1 << 20;

/** The records added so far, as `<name>Text` and `<name>Offsets` (see the module comment). */
export class RecordText {
	private readonly chunks: Uint8Array[] = [];
	/** Where each chunk's bytes start in the text. */
	private readonly starts: number[] = [];
	private current: Uint8Array = new Uint8Array(0);
	private at = 0;
	private length = 0;
	private readonly offsets: Uint32Array;
	private added = 0;

	/** `count`: how many records will be added; `chunkBytes`: a chunk's size. */
	constructor(
		count: number,
		private readonly utf8: CodecHost,
		private readonly chunkBytes = CHUNK_BYTES,
	) {
		this.offsets = new Uint32Array(count + 1);
	}

	/** Encode `record` after the ones before it. */
	add(record: string): void {
		if (this.added >= this.offsets.length - 1) throw new RangeError('more records than counted');
		const most = record.length * 3; // a UTF-16 unit is at most 3 bytes of UTF-8
		if (this.at + most > this.current.length) this.nextChunk(most);
		const written = this.encodeInto(record);
		this.at += written;
		this.length += written;
		this.offsets[++this.added] = this.length;
	}

	/** The two sections, `<name>Text` and `<name>Offsets`, once every counted record is added. */
	sections(name: string): Record<string, SectionBytes> {
		if (this.added !== this.offsets.length - 1) throw new RangeError('fewer records than counted');
		this.close();
		return {
			[`${name}Text`]:
				this.chunks.length === 0 ? new Uint8Array(0) : this.chunks.length === 1 ? this.chunks[0]! : this.text(),
			[`${name}Offsets`]: new Uint8Array(this.offsets.buffer),
		};
	}

	private encodeInto(record: string): number {
		if (this.utf8.encodeInto) return this.utf8.encodeInto(record, this.current, this.at);
		const bytes = this.utf8.encode(record);
		this.current.set(bytes, this.at);
		return bytes.length;
	}

	/** Ends the chunk being filled (if any bytes are in it) and starts one with room for `least` bytes. */
	private nextChunk(least: number): void {
		this.close();
		this.current = new Uint8Array(Math.max(this.chunkBytes, least));
	}

	private close(): void {
		if (this.at === 0) return;
		this.starts.push(this.length - this.at);
		this.chunks.push(this.current.subarray(0, this.at));
		this.current = new Uint8Array(0);
		this.at = 0;
	}

	/** The chunks as one section, filled when read. */
	private text(): SectionSource {
		const { chunks, starts } = this;
		return {
			length: this.length,
			fill(into, from) {
				let c = lastAtOrBelow(starts, chunks.length, from);
				for (let done = 0; done < into.length && c < chunks.length; c++) {
					const chunk = chunks[c]!;
					const piece = chunk.subarray(
						from + done - starts[c]!,
						from + done - starts[c]! + into.length - done,
					);
					into.set(piece, done);
					done += piece.length;
				}
			},
		};
	}
}
