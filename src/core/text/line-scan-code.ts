/**
 * The WebAssembly module of the line scan (line-scan.ts), spelled out with `wasm-asm`: its memory's
 * layout and its functions, each with what it takes and gives.
 */
import { listBody } from './line-list-code';
import { funcBody, funcType, I32, op, splat, V128, wasmModule } from './wasm-asm';

/** The literal's bytes (lower case without case), then the bits each byte is OR-ed with before it is compared (0x20 for a letter without case). */
export const NEEDLE = 0;
export const MASKS = 64;
/** Set to 1 by a scan when a match is followed by a byte above 0x7f (a combining mark may follow: see LiteralMatcher). Nothing is written from 144 to NOTE_AT (see back). */
export const FLAG = 128;
/** Where the note's bytes go; positions handed to and from the scan are offsets in them. */
export const NOTE_AT = 256;
/** Bytes after a note the vector loads may read (their lanes past its end are never used). */
export const PAD = 32;
/** A literal longer than this is searched in JavaScript. */
export const MAX_NEEDLE = 64;
/** Bytes per output record: line, start, end, first context line's start, the match's end (i32 each; the rest unused). */
export const RECORD = 32;
export const PAGE = 65536;

const NEWLINE = 10;
const [FIND, NEWLINE_AT, BACK, SCAN, ESCAPES, LIST] = [0, 1, 2, 3, 4, 5];
/** The globals `find` leaves the line ends it passed in: the last one's offset (-1: none), and how many. */
const [LAST, LINES] = [0, 1];

/**
 * find(pos, n, len): the first match at or after `pos` (a line start) that ends by `n`, or -1;
 * the line ends passed before it counted in LINES and the last one's offset left in LAST
 * (untouched when none), from the same sixteen bytes as the candidates.
 */
function findBody(): number[] {
	const [pos, n, len, p, m, c, i, nl, lines, last] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
	const [v, f0, o0, f1, o1] = [10, 11, 12, 13, 14];
	const byteSplat = (at: number, local: number): number[] => [
		...op.const(0),
		...op.load8(at),
		...op.splat8,
		...op.set(local),
	];
	// Lanes of `vector` whose byte, OR-ed with its mask, is the literal's byte.
	const lanes = (vector: number[], mask: number, byte: number): number[] => [
		...vector,
		...op.get(mask),
		...op.v128Or,
		...op.get(byte),
		...op.eq8,
	];
	// The line ends of `nl` counted, the last one's offset kept.
	const tally = [
		...[...op.get(lines), ...op.get(nl), ...op.popcnt, ...op.add, ...op.set(lines)],
		...[...op.get(nl), ...op.if, ...op.get(p), ...op.const(31), ...op.add, ...op.get(nl), ...op.clz, ...op.sub],
		...[...op.set(last), ...op.end],
	];
	return funcBody(
		[
			[7, I32],
			[5, V128],
		],
		[
			...[...op.const(-1), ...op.set(last)],
			...byteSplat(NEEDLE, f0),
			...byteSplat(MASKS, o0),
			...byteSplat(NEEDLE + 1, f1),
			...byteSplat(MASKS + 1, o1),
			...op.get(pos),
			...op.set(p),
			...op.block, // none found
			...op.loop, // each sixteen bytes
			...[...op.get(p), ...op.get(len), ...op.add, ...op.get(n), ...op.gtU, ...op.brIf(1)],
			...[
				...op.get(p),
				...op.v128Load(NOTE_AT),
				...op.tee(v),
				...splat(NEWLINE),
				...op.eq8,
				...op.bitmask8,
				...op.set(nl),
			],
			...lanes(op.get(v), o0, f0),
			...lanes([...op.get(p), ...op.v128Load(NOTE_AT + 1)], o1, f1),
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
			// Found: the line ends before it in these sixteen bytes counted too.
			...[...op.get(i), ...op.get(len), ...op.eq, ...op.if],
			...[
				...op.get(nl),
				...op.const(1),
				...op.get(c),
				...op.get(p),
				...op.sub,
				...op.shl,
				...op.const(1),
				...op.sub,
			],
			...[...op.and, ...op.set(nl), ...tally, ...op.get(last), ...op.globalSet(LAST), ...op.get(lines)],
			...[...op.globalSet(LINES), ...op.get(c), ...op.return, ...op.end],
			...[
				...op.get(c),
				...op.get(i),
				...op.add,
				...op.load8(NOTE_AT),
				...op.get(i),
				...op.load8(MASKS),
				...op.or,
			],
			...[...op.get(i), ...op.load8(NEEDLE), ...op.ne, ...op.brIf(1)],
			...[...op.get(i), ...op.const(1), ...op.add, ...op.set(i), ...op.br(0)],
			...op.end,
			...op.end,
			...[...op.get(m), ...op.get(m), ...op.const(1), ...op.sub, ...op.and, ...op.set(m), ...op.br(0)],
			...op.end,
			...op.end,
			...tally,
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
			...[
				...op.get(p),
				...op.v128Load(NOTE_AT),
				...splat(NEWLINE),
				...op.eq8,
				...op.bitmask8,
				...op.tee(m),
				...op.if,
			],
			...[...op.get(p), ...op.get(m), ...op.ctz, ...op.add, ...op.set(m)],
			...[...op.get(m), ...op.get(n), ...op.get(m), ...op.get(n), ...op.ltU, ...op.select, ...op.return],
			...op.end,
			...[...op.get(p), ...op.const(16), ...op.add, ...op.set(p), ...op.br(0)],
			...op.end,
			...op.unreachable,
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
			...[
				...op.get(base),
				...op.const(31),
				...op.add,
				...op.get(m),
				...op.clz,
				...op.sub,
				...op.set(start),
				...op.br(2),
			],
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
			...[...op.get(line), ...op.globalGet(LINES), ...op.add, ...op.set(line)],
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

/**
 * escapes(from, to): 1 when bytes [from, to) of the note hold a C0 control but tab, LF and CR, or
 * DEL; else 2 when they hold a lead byte of the C1 or bidirectional controls (C2, E2: the caller
 * looks at what follows it); else 0 — sixteen bytes at a time.
 */
function escapesBody(): number[] {
	const [from, to, p, mc, ml, k, v, ac, al] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
	const equals = (byte: number): number[] => [...op.get(v), ...splat(byte), ...op.eq8];
	const controls = [
		...[...op.get(v), ...splat(0x20), ...op.ltU8, ...equals(0x09), ...equals(0x0a), ...op.v128Or],
		...[...equals(0x0d), ...op.v128Or, ...op.andnot, ...equals(0x7f), ...op.v128Or],
	];
	const leads = [...equals(0xc2), ...equals(0xe2), ...op.v128Or];
	return funcBody(
		[
			[4, I32],
			[3, V128],
		],
		[
			...[...op.get(from), ...op.set(p)],
			// Whole sixteens: the lanes found gathered in two vectors, looked at once after.
			...op.block,
			...op.loop,
			...[...op.get(p), ...op.const(16), ...op.add, ...op.get(to), ...op.gtU, ...op.brIf(1)],
			...[...op.get(p), ...op.v128Load(NOTE_AT), ...op.set(v)],
			...[...op.get(ac), ...controls, ...op.v128Or, ...op.set(ac)],
			...[...op.get(al), ...leads, ...op.v128Or, ...op.set(al)],
			...[...op.get(p), ...op.const(16), ...op.add, ...op.set(p), ...op.br(0)],
			...op.end,
			...op.end,
			// The rest, fewer than sixteen: only the lanes before `to`.
			...[...op.get(p), ...op.get(to), ...op.ltU, ...op.if],
			...[...op.get(p), ...op.v128Load(NOTE_AT), ...op.set(v)],
			...[
				...op.const(1),
				...op.get(to),
				...op.get(p),
				...op.sub,
				...op.shl,
				...op.const(1),
				...op.sub,
				...op.set(k),
			],
			...[...controls, ...op.bitmask8, ...op.get(k), ...op.and, ...op.set(mc)],
			...[...leads, ...op.bitmask8, ...op.get(k), ...op.and, ...op.set(ml)],
			...op.end,
			...[
				...op.get(ac),
				...op.anyTrue,
				...op.get(mc),
				...op.or,
				...op.if,
				...op.const(1),
				...op.return,
				...op.end,
			],
			...[
				...op.get(al),
				...op.anyTrue,
				...op.get(ml),
				...op.or,
				...op.const(0),
				...op.ne,
				...op.const(1),
				...op.shl,
			],
		],
	);
}

/** The module: `s` (scan), `e` (newlineAt), `c` (escapes) and `l` (list, line-list-code.ts) exported with its memory, one page at first. */
export function lineScanModule(): Uint8Array<ArrayBuffer> {
	return wasmModule({
		types: [
			funcType([I32, I32, I32], true),
			funcType([I32, I32], true),
			funcType(Array<number>(7).fill(I32), true),
			funcType(Array<number>(6).fill(I32), true),
		],
		functions: [0, 1, 1, 2, 1, 3],
		pages: 1,
		globals: [
			[I32, 1, ...op.const(-1), ...op.end],
			[I32, 1, ...op.const(0), ...op.end],
		],
		exports: [
			['s', SCAN],
			['e', NEWLINE_AT],
			['c', ESCAPES],
			['l', LIST],
		],
		bodies: [findBody(), newlineBody(), backBody(), scanBody(), escapesBody(), listBody(NOTE_AT, NEWLINE_AT)],
	});
}
