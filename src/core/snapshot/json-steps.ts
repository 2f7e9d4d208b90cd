/**
 * A large JSON array encoded and decoded in steps: a saved part's path lists are ~3 MB of JSON at
 * 50k notes; one `JSON.parse` of them held a main thread for ~100 ms, one stringify and encode ~50 ms. The bytes are cut at the array's own
 * commas (outside strings and nested values) into pieces of about PIECE_BYTES, and each piece is
 * decoded and parsed in a step of its own. The result is what one `JSON.parse` gives; bytes that
 * are not one JSON array are parsed whole (and throw as `JSON.parse` does).
 */
import type { WorkMeter } from '../steps';
import { concatBytes } from './bytes';
import type { CodecHost } from './port';

/** Strings of a list stringified and encoded together by `jsonStringsSteps`. */
const JSON_STRINGS_BATCH = 256; // why: a few KB a piece — few arrays, each a small share of a step.
/** Work units a string counts for in `jsonStringsSteps`. */
const STRING_WORK = 16;

/** Bytes of JSON decoded and parsed per step. */
const PIECE_BYTES = 64 * 1024; // why: about a millisecond of decoding and parsing on a quiet machine.

const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

/** Where a scan of a JSON array's bytes stands: the next byte, the nesting, and the current piece's first byte. */
interface ArrayScan {
	i: number;
	depth: number;
	inString: boolean;
	start: number;
}

/** {@link nextCut}: the bytes are not one JSON array. */
const NOT_ONE_ARRAY = -2;
/** {@link nextCut}: the scan reached the bytes' end. */
const AT_END = -1;

/**
 * The next comma of the array (depth 1, outside strings) at least `pieceBytes` after the piece's
 * start, the scan moved past it; AT_END or NOT_ONE_ARRAY. A plain function, kept out of the
 * generator that calls it: the engine optimizes a generator's own loops less (as `namesNoNote`).
 */
function nextCut(bytes: Uint8Array, scan: ArrayScan, pieceBytes: number): number {
	const n = bytes.length;
	let { depth, inString } = scan;
	let i = scan.i;
	let cut = AT_END;
	for (; i < n; i++) {
		const c = bytes[i]!;
		if (inString) {
			if (c === BACKSLASH) i++;
			else if (c === QUOTE) inString = false;
			continue;
		}
		if (c === QUOTE) inString = true;
		else if (c === OPEN_BRACKET || c === OPEN_BRACE) depth++;
		else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
			depth--;
			if (depth === 0 && i !== n - 1) return NOT_ONE_ARRAY;
		} else if (c === COMMA && depth === 1 && i - scan.start >= pieceBytes) {
			cut = i++;
			break;
		}
	}
	Object.assign(scan, { i, depth, inString });
	return cut;
}

/** The JSON array in `bytes` (UTF-8), decoded a piece per step (see the module comment). */
export function* jsonArraySteps(
	bytes: Uint8Array,
	utf8: CodecHost,
	pieceBytes = PIECE_BYTES,
): Generator<void, unknown[], void> {
	const n = bytes.length;
	const whole = (): unknown[] => JSON.parse(utf8.decode(bytes, 0, n)) as unknown[];
	if (n < 2 || bytes[0] !== OPEN_BRACKET || bytes[n - 1] !== CLOSE_BRACKET || n <= pieceBytes) return whole();
	const out: unknown[] = [];
	const scan: ArrayScan = { i: 0, depth: 0, inString: false, start: 1 }; // a piece starts after `[` or a cut comma
	for (;;) {
		const cut = nextCut(bytes, scan, pieceBytes);
		if (cut === NOT_ONE_ARRAY) return whole(); // JSON.parse says why
		if (cut === AT_END) break;
		if (!parsePiece(bytes, scan.start, cut, utf8, out)) return whole();
		scan.start = cut + 1;
		yield;
	}
	if (scan.depth !== 0 || scan.inString || !parsePiece(bytes, scan.start, n - 1, utf8, out)) return whole();
	return out;
}

/** Parse bytes [from, to) — elements of the array, without brackets — onto `out`; false when empty. */
function parsePiece(bytes: Uint8Array, from: number, to: number, utf8: CodecHost, out: unknown[]): boolean {
	if (to <= from) return false;
	const items = JSON.parse(`[${utf8.decode(bytes, from, to)}]`) as unknown[];
	for (const item of items) out.push(item);
	return true;
}

/**
 * `utf8.encode(JSON.stringify(list))` of a list of strings, the same bytes, made a few at a time:
 * the paths of 50k notes stringified and encoded at once held the plugin's main thread ~50 ms.
 */
export function* jsonStringsSteps(
	list: readonly string[],
	utf8: CodecHost,
	meter: WorkMeter,
): Generator<void, Uint8Array, void> {
	const pieces = [utf8.encode('[')];
	for (let at = 0; at < list.length; at += JSON_STRINGS_BATCH) {
		const batch = list.slice(at, at + JSON_STRINGS_BATCH).map((item) => JSON.stringify(item));
		pieces.push(utf8.encode((at > 0 ? ',' : '') + batch.join(',')));
		if (meter.add(batch.length * STRING_WORK)) yield;
	}
	pieces.push(utf8.encode(']'));
	return concatBytes(pieces);
}
