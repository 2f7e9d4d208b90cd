/**
 * The lines of a note's UTF-8 bytes that hold an ASCII literal, found by a small WebAssembly
 * module with SIMD (spelled out here with `wasm-asm`): the candidates sixteen bytes at a time from
 * the literal's first two bytes, each verified; the lines up to each match counted sixteen bytes
 * at a time; the match line's end found the same way. JavaScript gets each matching line's
 * number, start and end, and where its first line of context starts. Where WebAssembly (or its
 * SIMD) is missing the caller searches the bytes in JavaScript (LiteralMatcher).
 */
import { SPAN } from './line-list-code';
import { FLAG, lineScanModule, MASKS, MAX_NEEDLE, NEEDLE, NOTE_AT, PAD, PAGE, RECORD } from './line-scan-code';
import { wasmApi, type WasmMemory } from './wasm-asm';

type Scan = (n: number, pos: number, line: number, len: number, before: number, cap: number, out: number) => number;

/** The compiled scan with its memory and views of it. */
interface LineScan {
	memory: WasmMemory;
	scan: Scan;
	/** newlineAt: the first line end at or after an offset of the note in memory, or its length. */
	lineEnd: (from: number, n: number) => number;
	/** list: the listing of the last scan's records (line-list-code.ts). */
	list: (count: number, context: number, minLine: number, n: number, recs: number, out: number) => number;
	/** The last scan's records: where, how many, and its note's size. */
	last: { out: number; count: number; n: number; inPlace: boolean };
	/** escapes: what bytes of the note in memory hold of the terminal's escapes. */
	escapes: (from: number, to: number) => number;
	bytes: Uint8Array;
	/** The memory from NOTE_AT on (`lineScanArea`). */
	area: Uint8Array;
	words: Int32Array;
	/** The literal (and case) whose bytes and masks are in memory. */
	needle: string;
	caseSensitive: boolean;
}

let lineScan: LineScan | null | undefined;

/** Whether the scan may be used (tests turn it off to check the JavaScript path gives the same). */
let enabled = true;

/** Turns the WebAssembly scan off (false) or on again: with it off, every note is searched in JavaScript. */
export function useLineScan(on: boolean): void {
	enabled = on;
}

/** The scan, compiled once on first use, or null where WebAssembly (or its SIMD) is not there. */
function theLineScan(): LineScan | null {
	if (!enabled) return null;
	if (lineScan !== undefined) return lineScan;
	lineScan = null;
	try {
		const api = wasmApi();
		const module = lineScanModule();
		if (api === null || !api.validate(module)) return null;
		const { exports } = new api.Instance(new api.Module(module));
		const memory = exports.m as WasmMemory;
		lineScan = {
			memory,
			scan: exports.s as Scan,
			lineEnd: exports.e as (from: number, n: number) => number,
			escapes: exports.c as (from: number, to: number) => number,
			list: exports.l as LineScan['list'],
			last: { out: 0, count: 0, n: 0, inPlace: false },
			bytes: new Uint8Array(0),
			area: new Uint8Array(0),
			words: new Int32Array(0),
			needle: '',
			caseSensitive: false,
		};
		views(lineScan);
	} catch {
		// No WebAssembly here: the notes are searched in JavaScript.
	}
	return lineScan;
}

/** Which scan finds a literal's lines in a note's bytes here: 'simd' (WebAssembly) or 'js'. */
export function lineScanKind(): 'simd' | 'js' {
	return theLineScan() === null ? 'js' : 'simd';
}

/** Fresh views of the memory (growing it detaches the old ones). */
function views(scan: LineScan): void {
	scan.bytes = new Uint8Array(scan.memory.buffer);
	scan.words = new Int32Array(scan.memory.buffer);
	scan.area = scan.bytes.subarray(NOTE_AT);
}

/** Grows the memory to at least `size` bytes. */
function reserve(scan: LineScan, size: number): void {
	if (scan.bytes.length >= size) return;
	scan.memory.grow(Math.ceil((size - scan.bytes.length) / PAGE));
	views(scan);
}

/** Where a scan of a note of `size` bytes writes its records. */
function outAt(size: number): number {
	return (NOTE_AT + size + PAD + RECORD - 1) & ~(RECORD - 1);
}

/**
 * A view of the scan's memory from where a note is best read (its scan then copies nothing) to its
 * end, of `size` bytes at least, with room after them for a scan's records; the same view until the
 * memory grows; null where there is no scan. Its bytes are valid until the next call, or a scan of
 * a note read elsewhere.
 */
export function lineScanArea(size: number): Uint8Array | null {
	const scan = theLineScan();
	if (scan === null) return null;
	reserve(scan, outAt(size) + RECORD * (64 + (size >> 2)) + size + LIST_ROOM);
	return scan.area;
}

/**
 * What bytes [from, to) of a note read into `lineScanArea` hold of the characters the terminal
 * escapes: 1 a C0 control but tab, LF and CR, or DEL; 2 none of those but a lead byte of the C1 or
 * bidirectional controls (C2, E2; what follows it says); 0 neither — sixteen bytes at a time.
 * Null for bytes read elsewhere.
 */
export function escapesIn(bytes: Uint8Array, from: number, to: number): number | null {
	const scan = lineScan;
	if (scan == null || bytes.buffer !== scan.memory.buffer || bytes.byteOffset !== NOTE_AT) return null;
	return scan.escapes(from, to);
}

/** Room for a listing's heads past the listed lines' bytes (see `listScanned`), reserved with a note read into `lineScanArea`. */
const LIST_ROOM = 64 * 1024;

/** A note's listed lines as a text answer prints them, and the span of the note they come from. */
export interface Listed {
	/** The listing (a view of the scan's memory, valid until its next use). */
	bytes: Uint8Array;
	/** The first listed line's start and the last one's end in the note. */
	from: number;
	to: number;
}

/**
 * The listing of the lines the last `scanLines` found (the first 100 matches with `context`
 * lines either side, lines from `minLine` on), written by the scan (line-list-code.ts), or null
 * when there is no room for it without growing the memory the note was read into.
 */
export function listScanned(context: number, minLine: number): Listed | null {
	const scan = lineScan!;
	const { out, count, n } = scan.last;
	const at = out + RECORD * count;
	const shown = Math.min(count, 100);
	// Each line's bytes once (stretches do not overlap), a head of at most 16 bytes each, a separator between stretches.
	const most = n + 16 * Math.min(shown * (2 * context + 1), n + 1) + 5 * shown;
	if (scan.bytes.length < at + most) {
		// Growing the memory would detach the note read into it, which the caller still lists.
		if (scan.last.inPlace) return null;
		reserve(scan, at + most);
	}
	const end = scan.list(count, context, minLine, n, out, at);
	const words = scan.words;
	return { bytes: scan.bytes.subarray(at, end), from: words[SPAN >> 2]!, to: words[(SPAN >> 2) + 1]! };
}

/** Writes the literal's bytes and masks (a letter without case: its lower case, OR-ed with 0x20). */
function setNeedle(scan: LineScan, needle: string, caseSensitive: boolean): void {
	if (scan.needle === needle && scan.caseSensitive === caseSensitive) return;
	for (let i = 0; i < needle.length; i++) {
		const c = needle.charCodeAt(i);
		const letter = !caseSensitive && ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a));
		scan.bytes[NEEDLE + i] = letter ? c | 0x20 : c;
		scan.bytes[MASKS + i] = letter ? 0x20 : 0;
	}
	// A one-byte literal: its second byte's lanes always agree.
	if (needle.length === 1) scan.bytes[NEEDLE + 1] = scan.bytes[MASKS + 1] = 0xff;
	scan.needle = needle;
	scan.caseSensitive = caseSensitive;
}

/**
 * The first line end at or after `from` in the note of `n` bytes the last `scanLines` answered
 * (its bytes are still in the scan's memory), or -1 when there is none.
 */
export function lineEndAfter(from: number, n: number): number {
	const end = lineScan!.lineEnd(from, n);
	return end < n ? end : -1;
}

/** The lines of a note holding the literal: numbers, starts, ends (a line end's offset, or the note's length), first context lines' starts. */
export interface ScannedLines {
	lines: number[];
	starts: number[];
	ends: number[];
	firstStarts: number[];
	/** Where a match ends that a byte above 0x7f follows (the caller looks there for a combining mark). */
	marks: number[];
}

/**
 * The lines of `bytes` (a note's UTF-8) from line `fromLine` (starting at `from`) on holding the
 * ASCII `needle`, with each one's first line of context `before` lines up, and the matches a
 * byte above 0x7f follows (`marks`) — or null when the scan cannot answer: no WebAssembly, a
 * needle over 64 bytes, bytes in its memory but not where `lineScanArea` starts, or more matching
 * lines than room for them in a note read into `lineScanArea` (growing would detach it).
 */
export function scanLines(
	bytes: Uint8Array,
	from: number,
	fromLine: number,
	needle: string,
	caseSensitive: boolean,
	before: number,
): ScannedLines | null {
	const scan = theLineScan();
	if (scan === null || needle.length > MAX_NEEDLE || needle.length === 0) return null;
	const n = bytes.length;
	const inMemory = bytes.buffer === scan.memory.buffer;
	const inPlace = inMemory && bytes.byteOffset === NOTE_AT;
	// Elsewhere in the memory (not at NOTE_AT): a copy to NOTE_AT would overwrite the bytes the caller lists.
	if (inMemory && !inPlace) return null;
	const out = outAt(n);
	if (!inPlace) {
		reserve(scan, out + RECORD * 64);
		scan.bytes.set(bytes, NOTE_AT);
	}
	setNeedle(scan, needle, caseSensitive);
	const cap = (scan.bytes.length - out) / RECORD;
	let count = scan.scan(n, from, fromLine, needle.length, before, cap, out);
	if (count > cap) {
		if (inPlace) return null;
		reserve(scan, out + RECORD * count);
		count = scan.scan(n, from, fromLine, needle.length, before, count, out);
	}
	scan.last = { out, count, n, inPlace };
	const found: ScannedLines = { lines: [], starts: [], ends: [], firstStarts: [], marks: [] };
	const words = scan.words;
	const flagged = words[FLAG >> 2] !== 0;
	for (let k = 0, at = out >> 2; k < count; k++, at += RECORD >> 2) {
		found.lines.push(words[at]!);
		found.starts.push(words[at + 1]!);
		found.ends.push(words[at + 2]!);
		found.firstStarts.push(words[at + 3]!);
		if (flagged && words[at + 4]! < n && scan.bytes[NOTE_AT + words[at + 4]!]! >= 0x80)
			found.marks.push(words[at + 4]!);
	}
	return found;
}
