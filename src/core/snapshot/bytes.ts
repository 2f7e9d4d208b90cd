/**
 * Little-endian byte writing and reading for the snapshot codec, plus the checksum that tells a
 * damaged snapshot from a good one. Typed-array sections are 8-byte aligned so they can be viewed
 * in place instead of copied.
 */

/** Growable byte buffer with aligned typed-array sections. */
export class ByteWriter {
	private buf = new Uint8Array(1 << 16);
	private view = new DataView(this.buf.buffer);
	/** Bytes written so far. */
	length = 0;

	private ensure(extra: number): void {
		const need = this.length + extra;
		if (need <= this.buf.length) return;
		let n = this.buf.length * 2;
		while (n < need) n *= 2;
		const next = new Uint8Array(n);
		next.set(this.buf.subarray(0, this.length));
		this.buf = next;
		this.view = new DataView(next.buffer);
	}

	/** Append an unsigned 32-bit integer. */
	u32(value: number): void {
		this.ensure(4);
		this.view.setUint32(this.length, value, true);
		this.length += 4;
	}

	/** Append raw bytes. */
	bytes(data: Uint8Array): void {
		this.ensure(data.length);
		this.buf.set(data, this.length);
		this.length += data.length;
	}

	/** Pad with zeros to a multiple of 8. */
	align(): void {
		const pad = (8 - (this.length % 8)) % 8;
		this.ensure(pad);
		this.buf.fill(0, this.length, this.length + pad);
		this.length += pad;
	}

	/** The bytes written, as a view (no copy). */
	finish(): Uint8Array {
		return this.buf.subarray(0, this.length);
	}
}

/** Bytes of a typed array, as a view. */
export function bytesOf(array: Uint32Array | Int32Array | Float64Array): Uint8Array {
	return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

/**
 * A 32-bit Fletcher-style checksum over `bytes` read as little-endian words (the tail padded with
 * zeros). Two running sums catch truncation, reordering and flipped bits; it runs at memory speed,
 * which matters because every warm call checks the whole snapshot.
 */
export function checksum(bytes: Uint8Array): number {
	const words = Math.floor(bytes.length / 4);
	const aligned = bytes.byteOffset % 4 === 0 ? new Uint32Array(bytes.buffer, bytes.byteOffset, words) : new Uint32Array(bytes.slice(0, words * 4).buffer);
	let a = 1;
	let b = 0;
	for (let i = 0; i < words; i++) {
		a = (a + aligned[i]) | 0;
		b = (b + a) | 0;
	}
	for (let i = words * 4; i < bytes.length; i++) {
		a = (a + bytes[i]) | 0;
		b = (b + a) | 0;
	}
	return (Math.imul(b, 0x9e3779b1) ^ a ^ bytes.length) >>> 0;
}

/** What `frame` needs from the host: UTF-8 and optionally a native checksum. */
interface FrameHost {
	encode(text: string): Uint8Array;
	checksum?(bytes: Uint8Array): number;
}

/**
 * Named sections in one framed file: magic u32, version u32, checksum u32 of the body, body length
 * u32, then the body — header length u32, the header JSON (with a `sections` table of offset and
 * length per name, relative to the first section), padding to 8, and every section 8-byte aligned.
 */
export function frame(magic: number, version: number, header: object, sections: readonly [string, Uint8Array][], host: FrameHost): Uint8Array {
	const table: Record<string, [number, number]> = {};
	let offset = 0;
	for (const [name, bytes] of sections) {
		table[name] = [offset, bytes.length];
		offset += Math.ceil(bytes.length / 8) * 8;
	}
	const headerBytes = host.encode(JSON.stringify({ ...header, sections: table }));
	const body = new ByteWriter();
	body.u32(headerBytes.length);
	body.bytes(headerBytes);
	body.align();
	for (const [, bytes] of sections) {
		body.bytes(bytes);
		body.align();
	}
	const bodyBytes = body.finish();
	const out = new ByteWriter();
	out.u32(magic);
	out.u32(version);
	out.u32((host.checksum ?? checksum)(bodyBytes));
	out.u32(bodyBytes.length);
	// 16 bytes of preamble keep the body 8-byte aligned.
	out.bytes(bodyBytes);
	return out.finish();
}
