/**
 * Little-endian byte writing and reading for the snapshot codec, plus the checksum that tells a
 * damaged snapshot from a good one. Typed-array sections are 8-byte aligned so they can be viewed
 * in place instead of copied.
 */

/** Growable byte buffer with aligned typed-array sections. */
export class ByteWriter {
	private buf: Uint8Array;
	private view: DataView;
	/** Bytes written so far. */
	length = 0;

	/** A writer with room for `capacity` bytes before it grows. */
	constructor(capacity = 1 << 16) {
		this.buf = new Uint8Array(Math.max(64, capacity));
		this.view = new DataView(this.buf.buffer);
	}

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

	/** Append `text` as UTF-8 (at most 3 bytes per UTF-16 unit); returns the bytes written. */
	text(text: string, host: TextHost): number {
		this.ensure(text.length * 3);
		let written: number;
		if (host.encodeInto) written = host.encodeInto(text, this.buf, this.length);
		else {
			const bytes = host.encode(text);
			this.buf.set(bytes, this.length);
			written = bytes.length;
		}
		this.length += written;
		return written;
	}

	/** The bytes written so far, as a view that the next write may invalidate. */
	peek(): Uint8Array {
		return this.buf.subarray(0, this.length);
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

/** A growable column of u32: copying a kept note's saved quadruples is one `set`, not a push per number. */
export class U32Builder {
	private buf: Uint32Array;
	/** Numbers written so far. */
	length = 0;

	/** A builder with room for `capacity` numbers before it grows. */
	constructor(capacity = 1024) {
		this.buf = new Uint32Array(Math.max(16, capacity));
	}

	private ensure(extra: number): void {
		if (this.length + extra <= this.buf.length) return;
		let n = this.buf.length * 2;
		while (n < this.length + extra) n *= 2;
		const next = new Uint32Array(n);
		next.set(this.buf.subarray(0, this.length));
		this.buf = next;
	}

	/** Append two or four numbers (a link pair, a field quadruple). */
	push(a: number, b: number, c?: number, d?: number): void {
		this.ensure(4);
		this.buf[this.length++] = a;
		this.buf[this.length++] = b;
		if (c !== undefined) this.buf[this.length++] = c;
		if (d !== undefined) this.buf[this.length++] = d;
	}

	/** Append every number of `values`. */
	append(values: ArrayLike<number>): void {
		this.ensure(values.length);
		if (values instanceof Uint32Array) this.buf.set(values, this.length);
		else for (let k = 0; k < values.length; k++) this.buf[this.length + k] = values[k]!;
		this.length += values.length;
	}

	/** The numbers written, as a view. */
	finish(): Uint32Array {
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
	const aligned =
		bytes.byteOffset % 4 === 0
			? new Uint32Array(bytes.buffer, bytes.byteOffset, words)
			: new Uint32Array(bytes.slice(0, words * 4).buffer);
	let a = 1;
	let b = 0;
	for (let i = 0; i < words; i++) {
		a = (a + aligned[i]!) | 0;
		b = (b + a) | 0;
	}
	for (let i = words * 4; i < bytes.length; i++) {
		a = (a + bytes[i]!) | 0;
		b = (b + a) | 0;
	}
	return (Math.imul(b, 0x9e3779b1) ^ a ^ bytes.length) >>> 0;
}

/** UTF-8 encoding as the host lends it (`encodeInto` writes in place: no intermediate copy). */
interface TextHost {
	encode(text: string): Uint8Array;
	encodeInto?(text: string, target: Uint8Array, at: number): number;
}

/** What `frame` needs from the host: UTF-8 and optionally a native checksum. */
interface FrameHost extends TextHost {
	checksum?(bytes: Uint8Array): number;
}

/** The first index of `needle` in `bytes[start, end)`, or -1. */
export function indexOf(bytes: Uint8Array, needle: Uint8Array, start: number, end: number): number {
	const first = needle[0];
	const last = end - needle.length;
	outer: for (let i = start; i <= last; i++) {
		if (bytes[i] !== first) continue;
		for (let k = 1; k < needle.length; k++) if (bytes[i + k] !== needle[k]) continue outer;
		return i;
	}
	return -1;
}

/**
 * FNV-1a over `bytes[start, end)`: the check of one field of a snapshot, verified when that field
 * is read (a field no query reads is never hashed). Not cryptographic: it tells damage from intact.
 */
export function fieldCheck(bytes: Uint8Array, start: number, end: number): number {
	let h = 0x811c9dc5 ^ (end - start);
	for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
	return h >>> 0;
}

/**
 * Named sections in one framed file: magic u32, version u32, checksum u32 of the body, body length
 * u32, then the body — header length u32, the header JSON (with a `sections` table of offset and
 * length per name, relative to the first section), padding to 8, and every section 8-byte aligned.
 * With `uncheckedTail` = k, the last k sections are left out of the checksum (the header's
 * `checkedTo` says where it stops, relative to the first section): they carry checks of their own,
 * verified piece by piece when read, so a call does not hash megabytes it never reads.
 */
export function frame(
	magic: number,
	version: number,
	header: object,
	sections: readonly [string, Uint8Array][],
	host: FrameHost,
	uncheckedTail = 0,
): Uint8Array {
	const chunks = frameChunks(magic, version, header, sections, host, uncheckedTail);
	return chunks.length === 1 ? chunks[0]! : concatBytes(chunks);
}

/** The bytes of `chunks` one after another. */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
	const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
	let at = 0;
	for (const c of chunks) {
		out.set(c, at);
		at += c.length;
	}
	return out;
}

/**
 * `frame` as a list of chunks to write one after another: the preamble, header and checked
 * sections in one buffer, then each unchecked section's pieces as given (a section may be several
 * pieces, e.g. a heap carried from the previous snapshot and what was appended to it) — megabytes
 * of metadata are written where they are, never copied into one buffer first.
 */
export function frameChunks(
	magic: number,
	version: number,
	header: object,
	sections: readonly [string, Uint8Array | readonly Uint8Array[]][],
	host: FrameHost,
	uncheckedTail = 0,
): Uint8Array[] {
	const table: Record<string, [number, number]> = {};
	let offset = 0;
	let checkedTo = 0;
	const pieces = sections.map(([name, bytes]): [string, readonly Uint8Array[]] => [
		name,
		bytes instanceof Uint8Array ? [bytes] : bytes,
	]);
	pieces.forEach(([name, list], i) => {
		const length = list.reduce((n, b) => n + b.length, 0);
		table[name] = [offset, length];
		offset += Math.ceil(length / 8) * 8;
		if (i < sections.length - uncheckedTail) checkedTo = offset;
	});
	const headerBytes = host.encode(
		JSON.stringify({ ...header, sections: table, ...(uncheckedTail > 0 ? { checkedTo } : {}) }),
	);
	const checkedCount = sections.length - uncheckedTail;
	// 16 bytes of preamble, filled in last, keep the body 8-byte aligned.
	const out = new ByteWriter(16 + 4 + headerBytes.length + 8 + checkedTo);
	for (let k = 0; k < 4; k++) out.u32(0);
	out.u32(headerBytes.length);
	out.bytes(headerBytes);
	out.align();
	const base = out.length - 16;
	for (const [, list] of pieces.slice(0, checkedCount)) {
		for (const bytes of list) out.bytes(bytes);
		out.align();
	}
	const first = out.finish();
	const chunks: Uint8Array[] = [first];
	let bodyLength = first.length - 16;
	for (const [, list] of pieces.slice(checkedCount)) {
		let length = 0;
		for (const bytes of list) {
			if (bytes.length > 0) chunks.push(bytes);
			length += bytes.length;
		}
		const pad = (8 - (length % 8)) % 8;
		if (pad > 0) chunks.push(new Uint8Array(pad));
		bodyLength += length + pad;
	}
	const preamble = new DataView(first.buffer, first.byteOffset, 16);
	preamble.setUint32(0, magic, true);
	preamble.setUint32(4, version, true);
	preamble.setUint32(8, (host.checksum ?? checksum)(first.subarray(16, 16 + base + checkedTo)), true);
	preamble.setUint32(12, bodyLength, true);
	return chunks;
}
