/** A heap of bytes written in chunks, none copied to grow (see HeapWriter). */
import { fieldCheck } from './bytes';
import type { CodecHost } from './port';

/**
 * A heap of bytes written in chunks (a snapshot's metadata heaps, a search part's records): a piece
 * never straddles two (its check is computed over its own bytes in one chunk), a chunk is sealed at
 * exactly the bytes written, so the chunks one after another are the bytes a single growing buffer
 * would hold — without its doubling and copying.
 */
export class HeapWriter {
	private readonly sealed: Uint8Array[] = [];
	private buf: Uint8Array;
	/** Bytes in `buf` so far. */
	private used = 0;
	/** Bytes of the sealed chunks. */
	private before = 0;

	/** A heap whose first chunk holds `capacity` bytes, and every chunk at least `chunk` (none is made before the first write when `capacity` is 0). */
	constructor(
		capacity: number,
		private readonly chunk: number,
	) {
		this.buf = new Uint8Array(capacity > 0 ? Math.max(chunk, capacity) : 0);
	}

	/** Bytes written so far. */
	get length(): number {
		return this.before + this.used;
	}

	/** Room for `extra` contiguous bytes in the current chunk, sealing it when it lacks it. */
	private room(extra: number): void {
		if (this.used + extra <= this.buf.length) return;
		if (this.used > 0) {
			this.sealed.push(this.buf.subarray(0, this.used));
			this.before += this.used;
		}
		this.buf = new Uint8Array(Math.max(this.chunk, extra));
		this.used = 0;
	}

	/** Appends `text` as UTF-8 and returns the check of its bytes. */
	text(text: string, host: CodecHost): number {
		const written = this.write(text, host);
		return fieldCheck(this.buf, this.used - written, this.used);
	}

	/** Appends `text` as UTF-8 (in one chunk) and returns the bytes written. */
	write(text: string, host: CodecHost): number {
		this.room(text.length * 3);
		const start = this.used;
		if (host.encodeInto) this.used += host.encodeInto(text, this.buf, start);
		else {
			const bytes = host.encode(text);
			this.buf.set(bytes, start);
			this.used += bytes.length;
		}
		return this.used - start;
	}

	/** Appends `data` in one piece; returns the offset (in the whole heap) it starts at. */
	bytes(data: Uint8Array): number {
		this.room(data.length);
		const at = this.length;
		this.buf.set(data, this.used);
		this.used += data.length;
		return at;
	}

	/** The chunks, in order. */
	finish(): Uint8Array[] {
		return this.used > 0 ? [...this.sealed, this.buf.subarray(0, this.used)] : [...this.sealed];
	}
}
