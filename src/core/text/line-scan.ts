/**
 * The lines of a note's UTF-8 bytes that hold an ASCII literal, found by a small WebAssembly
 * module with SIMD (spelled out here with `wasm-asm`): the candidates sixteen bytes at a time from
 * the literal's first two bytes, each verified; the lines up to each match counted sixteen bytes
 * at a time; the match line's end found the same way. JavaScript gets each matching line's
 * number, start and end, and where its first line of context starts. Where WebAssembly (or its
 * SIMD) is missing the caller searches the bytes in JavaScript (LiteralMatcher).
 */
import { funcBody, funcType, I32, op, splat, V128, wasmApi, wasmModule, type WasmMemory } from './wasm-asm';

/** The literal's bytes (lower case without case), then the bits each byte is OR-ed with before it is compared (0x20 for a letter without case). */
const NEEDLE = 0;
const MASKS = 64;
/** Set to 1 by a scan when a match is followed by a byte above 0x7f (a combining mark may follow: see LiteralMatcher); the bytes from here to NOTE_AT stay 0. */
const FLAG = 128;
/** Where the note's bytes go; positions handed to and from the scan are offsets in them. */
export const NOTE_AT = 256;
/** Bytes after a note the vector loads may read (their lanes past its end are never used). */
const PAD = 32;
/** A literal longer than this is searched in JavaScript. */
const MAX_NEEDLE = 64;
/** Bytes per output record: line, start, end, first context line's start, the match's end (i32 each; the rest unused). */
const RECORD = 32;
const PAGE = 65536;

const NEWLINE = 10;
const [FIND, NEWLINE_AT, COUNT, BACK] = [0, 1, 2, 3];
/** The global holding the last line end `count` passed (-1: none). */
const LAST = 0;

/** find(pos, n, len): the first match at or after `pos` that ends by `n`, or -1. */
function findBody(): number[] {
	const [pos, n, len, p, m, c, i, f0, o0, f1, o1] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
	const byteSplat = (at: number, local: number): number[] => [
		...op.const(0),
		...op.load8(at),
		...op.splat8,
		...op.set(local),
	];
	// Lanes whose byte, OR-ed with its mask, is the literal's byte at `at` (the vector at p + shift).
	const lanes = (shift: number, mask: number, byte: number): number[] => [
		...op.get(p),
		...op.v128Load(NOTE_AT + shift),
		...op.get(mask),
		...op.v128Or,
		...op.get(byte),
		...op.eq8,
	];
	return funcBody(
		[
			[4, I32],
			[4, V128],
		],
		[
			...byteSplat(NEEDLE, f0),
			...byteSplat(MASKS, o0),
			...byteSplat(NEEDLE + 1, f1),
			...byteSplat(MASKS + 1, o1),
			...op.get(pos),
			...op.set(p),
			...op.block, // none found
			...op.loop, // each sixteen bytes
			...[...op.get(p), ...op.get(len), ...op.add, ...op.get(n), ...op.gtU, ...op.brIf(1)],
			...lanes(0, o0, f0),
			...lanes(1, o1, f1),
			...[...op.v128And, ...op.bitmask8, ...op.set(m)],
			...op.block, // next sixteen
			...op.loop, // each candidate
			...[...op.get(m), ...op.eqz, ...op.brIf(1)],
			...[...op.get(p), ...op.get(m), ...op.ctz, ...op.add, ...op.set(c)],
			// Candidates come in order: one past the end means none further.
			...[...op.get(c), ...op.get(len), ...op.add, ...op.get(n), ...op.gtU, ...op.brIf(3)],
			...[...op.const(0), ...op.set(i)],
			...op.block, // not this one
			...op.loop, // each byte
			...[...op.get(i), ...op.get(len), ...op.eq, ...op.if, ...op.get(c), ...op.return, ...op.end],
			...[...op.get(c), ...op.get(i), ...op.add, ...op.load8(NOTE_AT), ...op.get(i), ...op.load8(MASKS), ...op.or],
			...[...op.get(i), ...op.load8(NEEDLE), ...op.ne, ...op.brIf(1)],
			...[...op.get(i), ...op.const(1), ...op.add, ...op.set(i), ...op.br(0)],
			...op.end,
			...op.end,
			...[...op.get(m), ...op.get(m), ...op.const(1), ...op.sub, ...op.and, ...op.set(m), ...op.br(0)],
			...op.end,
			...op.end,
			...[...op.get(p), ...op.const(16), ...op.add, ...op.set(p), ...op.br(0)],
			...op.end,
			...op.end,
			...op.const(-1),
		],
	);
}

/** newlineAt(from, n): the first line end at or after `from`, or `n`. */
function newlineBody(): number[] {
	const [from, n, p, m] = [0, 1, 2, 3];
	return funcBody(
		[[2, I32]],
		[
			...[...op.get(from), ...op.set(p)],
			...op.loop,
			...[...op.get(p), ...op.get(n), ...op.geU, ...op.if, ...op.get(n), ...op.return, ...op.end],
			...[...op.get(p), ...op.v128Load(NOTE_AT), ...splat(NEWLINE), ...op.eq8, ...op.bitmask8, ...op.tee(m), ...op.if],
			...[...op.get(p), ...op.get(m), ...op.ctz, ...op.add, ...op.set(m)],
			...[...op.get(m), ...op.get(n), ...op.get(m), ...op.get(n), ...op.ltU, ...op.select, ...op.return],
			...op.end,
			...[...op.get(p), ...op.const(16), ...op.add, ...op.set(p), ...op.br(0)],
			...op.end,
			...op.unreachable,
		],
	);
}

/** count(cur, at): the line ends in [cur, at); the last one's offset is left in the global LAST (untouched when none). */
function countBody(): number[] {
	const [cur, at, p, m, count] = [0, 1, 2, 3, 4];
	return funcBody(
		[[3, I32]],
		[
			...[...op.get(cur), ...op.set(p)],
			...op.block,
			...op.loop,
			...[...op.get(p), ...op.get(at), ...op.geU, ...op.brIf(1)],
			...[...op.get(p), ...op.v128Load(NOTE_AT), ...splat(NEWLINE), ...op.eq8, ...op.bitmask8, ...op.set(m)],
			// The last sixteen: only the lanes before `at`.
			...[...op.get(at), ...op.get(p), ...op.sub, ...op.const(16), ...op.ltU, ...op.if],
			...[...op.get(m), ...op.const(1), ...op.get(at), ...op.get(p), ...op.sub, ...op.shl, ...op.const(1), ...op.sub],
			...[...op.and, ...op.set(m), ...op.end],
			...[...op.get(m), ...op.if],
			...[...op.get(count), ...op.get(m), ...op.popcnt, ...op.add, ...op.set(count)],
			...[...op.get(p), ...op.const(31), ...op.add, ...op.get(m), ...op.clz, ...op.sub, ...op.globalSet(LAST)],
			...op.end,
			...[...op.get(p), ...op.const(16), ...op.add, ...op.set(p), ...op.br(0)],
			...op.end,
			...op.end,
			...op.get(count),
		],
	);
}

/**
 * back(start, k): the start of the line `k` lines above the one starting at `start` (there are
 * that many), each line end before found sixteen bytes at a time, backwards. A load that starts
 * up to 15 bytes before the note reads the zeros below NOTE_AT (past FLAG), never a line end.
 */
function backBody(): number[] {
	const [start, k, q, base, m] = [0, 1, 2, 3, 4];
	return funcBody(
		[[3, I32]],
		[
			...op.block,
			...op.loop,
			...[...op.get(k), ...op.const(0), ...op.leS, ...op.brIf(1)],
			// The last line end at or before q = start - 2 (the line above ends at start - 1), or -1.
			...[...op.get(start), ...op.const(2), ...op.sub, ...op.set(q)],
			...op.block,
			...op.loop,
			...[...op.const(-1), ...op.set(start), ...op.get(q), ...op.const(0), ...op.ltS, ...op.brIf(1)],
			// The address with NOTE_AT added first: a memory offset is added to it as unsigned.
			...[...op.get(q), ...op.const(15), ...op.sub, ...op.tee(base), ...op.const(NOTE_AT), ...op.add],
			...[...op.v128Load(0), ...splat(NEWLINE), ...op.eq8, ...op.bitmask8, ...op.tee(m), ...op.if],
			...[...op.get(base), ...op.const(31), ...op.add, ...op.get(m), ...op.clz, ...op.sub, ...op.set(start), ...op.br(2)],
			...op.end,
			...[...op.get(base), ...op.const(1), ...op.sub, ...op.set(q), ...op.br(0)],
			...op.end,
			...op.end,
			...[...op.get(start), ...op.const(1), ...op.add, ...op.set(start)],
			...[...op.get(k), ...op.const(1), ...op.sub, ...op.set(k), ...op.br(0)],
			...op.end,
			...op.end,
			...op.get(start),
		],
	);
}

/**
 * scan(n, pos, line, len, before, cap, out): each line from `pos` (the start of line `line`) on
 * holding the literal, one record at `out` each for the first `cap`: its number, start, end (its
 * line end, or `n`) and the start of the line `before` lines up (never above line `line`). Returns
 * how many lines match; sets FLAG when a match is followed by a byte above 0x7f.
 */
function scanBody(): number[] {
	const [n, pos, line, len, before, cap, out] = [0, 1, 2, 3, 4, 5, 6];
	const [count, cur, at, end, start, rec, fromLine, flag] = [7, 8, 9, 10, 11, 12, 13, 14];
	// min(before, line - fromLine): the context lines above that are the note's body.
	const above = [...op.get(line), ...op.get(fromLine), ...op.sub];
	return funcBody(
		[[8, I32]],
		[
			...[...op.get(line), ...op.set(fromLine), ...op.get(pos), ...op.set(cur)],
			...op.block,
			...op.loop,
			...[...op.get(pos), ...op.get(n), ...op.get(len), ...op.call(FIND), ...op.tee(at)],
			...[...op.const(0), ...op.ltS, ...op.brIf(1)],
			...[...op.const(-1), ...op.globalSet(LAST)],
			...[...op.get(line), ...op.get(cur), ...op.get(at), ...op.call(COUNT), ...op.add, ...op.set(line)],
			...[...op.globalGet(LAST), ...op.const(1), ...op.add, ...op.get(cur)],
			...[...op.globalGet(LAST), ...op.const(0), ...op.geS, ...op.select, ...op.set(start)],
			...[...op.get(at), ...op.get(n), ...op.call(NEWLINE_AT), ...op.set(end)],
			...[...op.get(at), ...op.get(len), ...op.add, ...op.get(n), ...op.ltU, ...op.if],
			...[...op.get(at), ...op.get(len), ...op.add, ...op.load8(NOTE_AT), ...op.const(0x80), ...op.geU],
			...[...op.if, ...op.const(1), ...op.set(flag), ...op.end],
			...op.end,
			...[...op.get(count), ...op.get(cap), ...op.ltU, ...op.if],
			...[...op.get(out), ...op.get(count), ...op.const(5), ...op.shl, ...op.add, ...op.tee(rec)],
			...[...op.get(line), ...op.store(0)],
			...[...op.get(rec), ...op.get(start), ...op.store(4)],
			...[...op.get(rec), ...op.get(end), ...op.store(8)],
			...[...op.get(rec), ...op.get(start), ...op.get(before), ...above, ...op.get(before), ...above, ...op.ltS],
			...[...op.select, ...op.call(BACK), ...op.store(12)],
			...[...op.get(rec), ...op.get(at), ...op.get(len), ...op.add, ...op.store(16)],
			...op.end,
			...[...op.get(count), ...op.const(1), ...op.add, ...op.set(count)],
			...[...op.get(end), ...op.get(n), ...op.geU, ...op.brIf(1)],
			...[...op.get(end), ...op.const(1), ...op.add, ...op.tee(pos), ...op.set(cur)],
			...[...op.get(line), ...op.const(1), ...op.add, ...op.set(line), ...op.br(0)],
			...op.end,
			...op.end,
			...[...op.const(0), ...op.get(flag), ...op.store(FLAG)],
			...op.get(count),
		],
	);
}

/** The module: `s` (scan) exported with its memory, one page at first. */
export function lineScanModule(): Uint8Array<ArrayBuffer> {
	return wasmModule({
		types: [funcType([I32, I32, I32], true), funcType([I32, I32], true), funcType(Array<number>(7).fill(I32), true)],
		functions: [0, 1, 1, 1, 2],
		pages: 1,
		globals: [[I32, 1, ...op.const(-1), ...op.end]],
		exports: [
			['s', 4],
			['e', NEWLINE_AT],
		],
		bodies: [findBody(), newlineBody(), countBody(), backBody(), scanBody()],
	});
}

type Scan = (n: number, pos: number, line: number, len: number, before: number, cap: number, out: number) => number;

/** The compiled scan with its memory and views of it. */
interface LineScan {
	memory: WasmMemory;
	scan: Scan;
	/** newlineAt: the first line end at or after an offset of the note in memory, or its length. */
	lineEnd: (from: number, n: number) => number;
	bytes: Uint8Array;
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
			bytes: new Uint8Array(0),
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
 * A view of the scan's memory of `size` bytes where a note is best read (its scan then copies
 * nothing), with room after it for a scan's records; null where there is no scan. Valid until
 * the next call, or a scan of a note read elsewhere.
 */
export function lineScanArea(size: number): Uint8Array | null {
	const scan = theLineScan();
	if (scan === null) return null;
	reserve(scan, outAt(size) + RECORD * (64 + (size >> 2)));
	return scan.bytes.subarray(NOTE_AT, NOTE_AT + size);
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
 * needle over 64 bytes, or more matching lines than room for them in a note read into
 * `lineScanArea` (growing would detach it).
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
	const inPlace = bytes.buffer === scan.memory.buffer && bytes.byteOffset === NOTE_AT;
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
	const found: ScannedLines = { lines: [], starts: [], ends: [], firstStarts: [], marks: [] };
	const words = scan.words;
	const flagged = words[FLAG >> 2] !== 0;
	for (let k = 0, at = out >> 2; k < count; k++, at += RECORD >> 2) {
		found.lines.push(words[at]!);
		found.starts.push(words[at + 1]!);
		found.ends.push(words[at + 2]!);
		found.firstStarts.push(words[at + 3]!);
		if (flagged && words[at + 4]! < n && scan.bytes[NOTE_AT + words[at + 4]!]! >= 0x80) found.marks.push(words[at + 4]!);
	}
	return found;
}
