/**
 * Unsigned LEB128 varints for the trigram index's postings and its one-blob form: a writer that
 * appends numbers and strings, and a reader that refuses to run past the end.
 */

/** A serialised trigram index that cannot be read (truncated, corrupted, another version). */
export class TrigramFormatError extends Error {}

/** Appends varints and length-prefixed strings. */
export class VarintWriter {
	private buffer = new Uint8Array(1 << 16);
	/** Bytes written so far. */
	length = 0;

	private room(n: number): void {
		if (this.length + n <= this.buffer.length) return;
		const bigger = new Uint8Array(Math.max(this.buffer.length * 2, this.length + n));
		bigger.set(this.buffer.subarray(0, this.length));
		this.buffer = bigger;
	}

	/** Append an unsigned integer (up to 2^53). */
	uint(value: number): void {
		this.room(8);
		let v = value;
		while (v >= 0x80) {
			this.buffer[this.length++] = (v & 0x7f) | 0x80;
			v = Math.floor(v / 128);
		}
		this.buffer[this.length++] = v;
	}

	/** A string as its length and UTF-16 code units (core has no TextEncoder; paths are short). */
	text(value: string): void {
		this.uint(value.length);
		for (let i = 0; i < value.length; i++) this.uint(value.charCodeAt(i));
	}

	/** Raw bytes. */
	bytes(data: Uint8Array): void {
		this.room(data.length);
		this.buffer.set(data, this.length);
		this.length += data.length;
	}

	/** A copy of what was written. */
	finish(): Uint8Array {
		return this.buffer.slice(0, this.length);
	}
}

/** Reads what {@link VarintWriter} wrote. */
export class VarintReader {
	/** Read position. */
	at: number;

	/** A reader of `data[start, end)`. */
	constructor(
		private readonly data: Uint8Array,
		start = 0,
		private readonly end = data.length,
	) {
		this.at = start;
	}

	/** The next unsigned integer. */
	uint(): number {
		let value = 0;
		let scale = 1;
		for (let i = 0; i < 8; i++) {
			if (this.at >= this.end) throw new TrigramFormatError('trigram index: truncated');
			const byte = this.data[this.at++]!;
			value += (byte & 0x7f) * scale;
			if (byte < 0x80) return value;
			scale *= 128;
		}
		throw new TrigramFormatError('trigram index: a number too long');
	}

	/** The next string. */
	text(): string {
		const length = this.uint();
		if (this.at + length > this.end) throw new TrigramFormatError('trigram index: truncated');
		let out = '';
		for (let i = 0; i < length; i++) {
			const unit = this.uint();
			if (unit > 0xffff) throw new TrigramFormatError('trigram index: a path is not text');
			out += String.fromCharCode(unit);
		}
		return out;
	}

	/** The next `n` raw bytes (a view). */
	bytes(n: number): Uint8Array {
		if (this.at + n > this.end) throw new TrigramFormatError('trigram index: truncated');
		const out = this.data.subarray(this.at, this.at + n);
		this.at += n;
		return out;
	}

	/** Whether every byte was read. */
	done(): boolean {
		return this.at === this.end;
	}
}
