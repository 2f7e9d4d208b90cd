/**
 * The listing of a note's matching lines as a text answer prints them, written by the line scan's
 * WebAssembly module (line-scan-code.ts) from its records: each stretch of lines (a match's
 * context merged with the next match's where they overlap or touch) as `\n  <line>: ` (a match)
 * or `\n  <line>- ` (context) and the line's bytes (line end and CR left out), `\n  --` between
 * two stretches — what `rawLinesAround` (grep.ts) and the stream's `noteRaw` make of the same
 * records in JavaScript.
 */
import { funcBody, I32, op } from './wasm-asm';

/** Where `list` leaves the start of the first line and the end of the last line it wrote (the span the caller checks for escapes). */
export const SPAN = 136;

/** At most this many matching lines of a note are listed (grep.ts's MAX_LINES_PER_NOTE). */
const SHOWN = 100;

/** Code writing `bytes` at local `w` and moving it past them. */
function writeAt(w: number, bytes: number[]): number[] {
	return [
		...bytes.flatMap((b, i) => [...op.get(w), ...op.const(b), ...op.store8(i)]),
		...[...op.get(w), ...op.const(bytes.length), ...op.add, ...op.set(w)],
	];
}

/** Code adding 1 to a local. */
function increment(local: number): number[] {
	return [...op.get(local), ...op.const(1), ...op.add, ...op.set(local)];
}

/**
 * Code writing a line's head at local `w`: `\n  `, its number (local `line` + 1) in decimal, `:`
 * (local `mark` set) or `-`, a space; `x` and `q` are scratch locals.
 */
function lineHead(w: number, line: number, mark: number, x: number, q: number): number[] {
	return [
		...writeAt(w, [0x0a, 0x20, 0x20]),
		...[...op.get(line), ...op.const(1), ...op.add, ...op.set(x), ...op.get(w), ...op.set(q)],
		...op.block,
		...op.loop,
		...[...increment(q), ...op.get(x), ...op.const(10), ...op.ltU, ...op.brIf(1)],
		...[...op.get(x), ...op.const(10), ...op.divU, ...op.set(x), ...op.br(0)],
		...op.end,
		...op.end,
		...[...op.get(q), ...op.set(w), ...op.get(line), ...op.const(1), ...op.add, ...op.set(x)],
		// The digits written backwards from the head's end.
		...op.loop,
		...[...op.get(q), ...op.const(1), ...op.sub, ...op.tee(q)],
		...[...op.get(x), ...op.const(10), ...op.remU, ...op.const(0x30), ...op.add, ...op.store8(0)],
		...[...op.get(x), ...op.const(10), ...op.divU, ...op.tee(x), ...op.brIf(0)],
		...op.end,
		...[...op.get(w), ...op.const(0x3a), ...op.const(0x2d), ...op.get(mark), ...op.select, ...op.store8(0)],
		...[...op.get(w), ...op.const(0x20), ...op.store8(1), ...op.get(w), ...op.const(2), ...op.add, ...op.set(w)],
	];
}

/**
 * list(count, context, minLine, n, recs, out): the listing of the first `count` records (at most
 * SHOWN) at `recs` (see scan) of the note of `n` bytes at `noteAt`, written from `out`; returns
 * where it ends. `newlineAt` is the index of the function finding a line end.
 */
export function listBody(noteAt: number, newlineAt: number): number[] {
	const [count, context, minLine, n, recs, out] = [0, 1, 2, 3, 4, 5];
	const [shown, k, to, toStart, ended, next, match, line, start, last] = [6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
	const [newline, end, w, rec, x, q, first, lastEnd, mark] = [16, 17, 18, 19, 20, 21, 22, 23, 24];
	const recordLine = (index: number): number[] => [
		...op.get(recs),
		...op.get(index),
		...op.const(5),
		...op.shl,
		...op.add,
		...op.load(0),
	];
	return funcBody(
		[[19, I32]],
		[
			...[...op.get(count), ...op.const(SHOWN), ...op.get(count), ...op.const(SHOWN), ...op.ltU, ...op.select],
			...[...op.set(shown), ...op.const(-1), ...op.set(to), ...op.const(-1), ...op.set(first)],
			...[...op.get(out), ...op.set(w)],
			...op.block,
			...op.loop, // each match shown
			...[...op.get(k), ...op.get(shown), ...op.geU, ...op.brIf(1), ...op.get(ended), ...op.brIf(1)],
			...[...op.get(recs), ...op.get(k), ...op.const(5), ...op.shl, ...op.add, ...op.tee(rec), ...op.load(0)],
			...[...op.set(match), ...op.get(match), ...op.get(context), ...op.sub, ...op.set(line)],
			// line = max(minLine, match - context, to)
			...[
				...op.get(line),
				...op.get(minLine),
				...op.ltS,
				...op.if,
				...op.get(minLine),
				...op.set(line),
				...op.end,
			],
			...[...op.get(line), ...op.get(to), ...op.ltS, ...op.if, ...op.get(to), ...op.set(line), ...op.end],
			...[...op.get(k), ...op.if, ...op.get(line), ...op.get(to), ...op.gtS, ...op.if],
			...writeAt(w, [0x0a, 0x20, 0x20, 0x2d, 0x2d]),
			...[...op.end, ...op.end],
			...[...op.get(toStart), ...op.set(start), ...op.get(line), ...op.get(to), ...op.ne, ...op.if],
			...[...op.get(rec), ...op.load(12), ...op.set(start), ...op.end],
			...[...op.get(match), ...op.get(context), ...op.add, ...op.set(last)],
			...op.block,
			...op.loop, // each line of the stretch
			...[...op.get(line), ...op.get(last), ...op.gtS, ...op.brIf(1)],
			...[
				...op.get(line),
				...op.get(match),
				...op.eq,
				...op.if,
				...op.get(rec),
				...op.load(8),
				...op.set(newline),
			],
			...[...op.else, ...op.get(start), ...op.get(n), ...op.call(newlineAt), ...op.set(newline), ...op.end],
			...[...op.get(newline), ...op.set(end), ...op.get(end), ...op.get(start), ...op.gtS, ...op.if],
			...[...op.get(end), ...op.load8(noteAt - 1), ...op.const(13), ...op.eq, ...op.if],
			...[...op.get(end), ...op.const(1), ...op.sub, ...op.set(end), ...op.end, ...op.end],
			// The first shown match at or after this line: this line is one when it is that match's.
			...op.block,
			...op.loop,
			...[...op.get(next), ...op.get(shown), ...op.geU, ...op.brIf(1)],
			...[...recordLine(next), ...op.get(line), ...op.geS, ...op.brIf(1), ...increment(next), ...op.br(0)],
			...op.end,
			...op.end,
			...[...op.const(0), ...op.set(mark), ...op.get(next), ...op.get(shown), ...op.ltU, ...op.if],
			...[...recordLine(next), ...op.get(line), ...op.eq, ...op.set(mark), ...op.end],
			...[...op.get(first), ...op.const(0), ...op.ltS, ...op.if, ...op.get(start), ...op.set(first), ...op.end],
			...lineHead(w, line, mark, x, q),
			...[...op.get(w), ...op.get(start), ...op.const(noteAt), ...op.add, ...op.get(end), ...op.get(start)],
			...[
				...op.sub,
				...op.copy,
				...op.get(w),
				...op.get(end),
				...op.get(start),
				...op.sub,
				...op.add,
				...op.set(w),
			],
			...[...op.get(end), ...op.set(lastEnd)],
			// Past the note's last line: nothing after it.
			...[...op.get(newline), ...op.get(n), ...op.geU, ...op.if, ...op.const(1), ...op.set(ended)],
			...[...increment(line), ...op.br(2), ...op.end],
			...[...op.get(newline), ...op.const(1), ...op.add, ...op.set(start), ...increment(line), ...op.br(0)],
			...op.end,
			...op.end,
			...[...op.get(line), ...op.get(to), ...op.gtS, ...op.if, ...op.get(line), ...op.set(to)],
			...[...op.get(start), ...op.set(toStart), ...op.end],
			...[...increment(k), ...op.br(0)],
			...op.end,
			...op.end,
			...[
				...op.const(0),
				...op.get(first),
				...op.store(SPAN),
				...op.const(0),
				...op.get(lastEnd),
				...op.store(SPAN + 4),
			],
			...op.get(w),
		],
	);
}
