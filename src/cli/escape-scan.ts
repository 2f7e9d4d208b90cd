/**
 * Finding, in a note's UTF-8 bytes, the characters `escapeControls` spells out for the terminal —
 * line by line as a listing copies them (`escapedIn`), or for the whole note at once
 * (`noteMayEscape`), so a note that holds none has its lines copied natively, unlooked at.
 */
import { escapesIn } from '../core/text/line-scan';
import { leb, section } from '../core/text/wasm-asm';

/**
 * What a byte says of the terminal escapes: 0 nothing, 1 escaped itself (C0 controls but tab, LF
 * and CR; DEL), 2 the lead of U+0080–U+00BF (C2: the C1 controls follow), 3 the lead of
 * U+2000–U+2FFF (E2: the bidirectional controls follow). One look-up per byte, where a chain of
 * comparisons per byte was most of a full listing's copy at 50k notes.
 */
export const ESCAPE_CLASS = ((): Uint8Array => {
	const table = new Uint8Array(256);
	for (let b = 0; b < 0x20; b++) if (b !== 0x09 && b !== 0x0a && b !== 0x0d) table[b] = 1;
	table[0x7f] = 1;
	table[0xc2] = 2;
	table[0xe2] = 3;
	return table;
})();

/**
 * Whether the byte at `i` (of class `kind`, not 0) starts a character `escapeControls` spells out,
 * within bytes before `to`: C2 80–9F (the C1 controls), E2 80 AA–AE (U+202A–202E) or E2 81 A6–A9
 * (U+2066–2069).
 */
export function escapedAt(bytes: Uint8Array, i: number, to: number, kind: number): boolean {
	if (kind === 1) return true;
	if (kind === 2) {
		if (i + 1 >= to) return false;
		const c = bytes[i + 1]!;
		return c >= 0x80 && c <= 0x9f;
	}
	if (i + 2 >= to) return false;
	const c = bytes[i + 1]!;
	const d = bytes[i + 2]!;
	return (c === 0x80 && d >= 0xaa && d <= 0xae) || (c === 0x81 && d >= 0xa6 && d <= 0xa9);
}

/**
 * Whether bytes [from, to) of a note's UTF-8 hold a character `escapeControls` spells out (a line
 * of RawLines holds no newline and no CR of CRLF): C0 controls but tab, DEL, the C1 controls
 * (C2 80–9F), U+202A–202E (E2 80 AA–AE) and U+2066–2069 (E2 81 A6–A9).
 */
export function escapedIn(bytes: Uint8Array, from: number, to: number): boolean {
	for (let i = from; i < to; i++) {
		const kind = ESCAPE_CLASS[bytes[i]!]!;
		if (kind !== 0 && escapedAt(bytes, i, to, kind)) return true;
	}
	return false;
}

/** Bytes looked at per step of the WebAssembly scan (one SIMD vector). */
const LANES = 16;

/**
 * A WebAssembly module exporting its memory (`m`) and `c(at, length)`: 1 when bytes [at, at +
 * length rounded up to 16) hold a C0 control but tab, LF and CR, or DEL, else 0 — sixteen bytes per
 * step with SIMD. Spelled out here, a few hundred bytes, rather than built from a text file.
 */
function controlScanModule(): Uint8Array<ArrayBuffer> {
	// v128.const of one byte sixteen times.
	const splat = (b: number): number[] => [0xfd, 0x0c, ...Array<number>(LANES).fill(b)];
	// local.get 4 (the vector); that byte; i8x16.eq
	const equals = (b: number): number[] => [0x20, 4, ...splat(b), 0xfd, 0x23];
	const V128_OR = [0xfd, 0x50];
	const body = [
		...[2, 1, 0x7f, 2, 0x7b], // locals: end (i32); acc, vector (v128)
		...[0x20, 0, 0x20, 1, 0x6a, 0x21, 2], // end = at + length
		...[0x02, 0x40, 0x03, 0x40], // block, loop
		...[0x20, 0, 0x20, 2, 0x4f, 0x0d, 1], // at >= end: out of the block
		...[0x20, 0, 0xfd, 0x00, 0, 0, 0x21, 4], // vector = v128.load(at)
		...[0x20, 4, ...splat(0x20), 0xfd, 0x26], // below 0x20 (i8x16.lt_u)
		...equals(0x09),
		...equals(0x0a),
		...V128_OR,
		...equals(0x0d),
		...V128_OR,
		...[0xfd, 0x4f], // below 0x20 and not tab, LF, CR (v128.andnot)
		...equals(0x7f),
		...V128_OR,
		...[0x20, 3, ...V128_OR, 0x21, 3], // acc |= …
		...[0x20, 0, 0x41, LANES, 0x6a, 0x21, 0], // at += 16
		...[0x0c, 0, 0x0b, 0x0b], // again; end loop, end block
		...[0x20, 3, 0xfd, 0x53, 0x0b], // v128.any_true(acc)
	];
	return new Uint8Array([
		...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
		...section(1, [1, 0x60, 2, 0x7f, 0x7f, 1, 0x7f]), // (i32, i32) -> i32
		...section(3, [1, 0]),
		...section(5, [1, 0, 1]), // one memory of one page at first
		...section(7, [2, 1, 0x6d, 2, 0, 1, 0x63, 0, 0]), // "m" memory 0, "c" function 0
		...section(10, [1, ...leb(body.length), ...body]),
	]);
}

/** The compiled scan with its memory, or null where WebAssembly (or its SIMD) is not there. */
interface ControlScan {
	memory: WebAssembly.Memory;
	scan: (at: number, length: number) => number;
	view: Uint8Array;
}

let controlScan: ControlScan | null | undefined;

/** The scan, compiled once on first use. */
function theControlScan(): ControlScan | null {
	if (controlScan !== undefined) return controlScan;
	controlScan = null;
	try {
		const module = controlScanModule();
		if (typeof WebAssembly === 'undefined' || !WebAssembly.validate(module)) return null;
		const { exports } = new WebAssembly.Instance(new WebAssembly.Module(module));
		const memory = exports.m as WebAssembly.Memory;
		controlScan = {
			memory,
			scan: exports.c as (at: number, length: number) => number,
			view: new Uint8Array(memory.buffer),
		};
	} catch {
		// No WebAssembly here: every byte is looked at in JavaScript.
	}
	return controlScan;
}

/** Which scan looks for the C0 controls here: 'simd' (WebAssembly) or 'bytes' (one byte at a time, where there is none). */
export function controlScanKind(): 'simd' | 'bytes' {
	return theControlScan() === null ? 'bytes' : 'simd';
}

/** Whether `bytes[from, to)` hold a C0 control but tab, LF and CR, or DEL: sixteen bytes at a time where WebAssembly can. */
function holdsControls(bytes: Uint8Array, from: number, to: number): boolean {
	const wasm = theControlScan();
	if (wasm === null) {
		for (let i = from; i < to; i++) if (ESCAPE_CLASS[bytes[i]!] === 1) return true;
		return false;
	}
	const length = to - from;
	const padded = length + LANES;
	if (wasm.view.length < padded) {
		wasm.memory.grow(Math.ceil((padded - wasm.view.length) / 65536));
		wasm.view = new Uint8Array(wasm.memory.buffer);
	}
	wasm.view.set(from === 0 && to === bytes.length ? bytes : bytes.subarray(from, to), 0);
	// The last step reads up to 15 bytes past the range: spaces, which the scan passes.
	wasm.view.fill(0x20, length, padded);
	return wasm.scan(0, length) !== 0;
}

/**
 * Whether a lead byte `lead` in `bytes[from, to)` starts an escaped character (class `kind`) within
 * them: each lead found natively where `bytes` is a Node Buffer (a plain Uint8Array's `indexOf`
 * looks at one byte at a time).
 */
function leadEscapes(bytes: Uint8Array, from: number, to: number, lead: number, kind: number): boolean {
	for (let i = bytes.indexOf(lead, from); i >= 0 && i < to; i = bytes.indexOf(lead, i + 1))
		if (escapedAt(bytes, i, to, kind)) return true;
	return false;
}

/**
 * Whether bytes [from, to) of a note may hold a character `escapeControls` spells out: false only
 * when none of the lines among them can (`escapedIn` of each would say false), so they are copied
 * as they are. The C0 controls and DEL are looked for sixteen bytes at a time, the C1 and
 * bidirectional controls from each of their lead bytes found natively (`indexOf`): looking at
 * every byte of each listed line was a fifth of a full listing's time at 50k notes.
 */
export function noteMayEscape(bytes: Uint8Array, from = 0, to = bytes.length): boolean {
	// A note read into the line scan's memory is looked at there, its lead bytes too, without a copy.
	const found = escapesIn(bytes, from, to);
	if (found === 0 || found === 1) return found === 1;
	return (
		(found === null && holdsControls(bytes, from, to)) ||
		leadEscapes(bytes, from, to, 0xc2, 2) ||
		leadEscapes(bytes, from, to, 0xe2, 3)
	);
}
