/**
 * CommonMark's first phase for one line: which open containers (block quotes, list items) the
 * line continues, consuming their markers and indentation. Kept free of the parser's state so
 * the hot loop works on locals only.
 */
import { CH, columnAfter, isDigit, isSpaceOrTab, skipBlanks } from './chars';
import { QUOTE, type Container } from './containers';

/** Where a line stands while the phases of `BlockParser.line` consume it; one per parser, reused. */
export interface LineCursor {
	/** Offset of the next unconsumed character. */
	pos: number;
	/** Virtual column of `pos` (tabs expanded to multiples of 4). */
	vcol: number;
	/** Column where the current container's content starts (≤ vcol). */
	logical: number;
	/** How many containers of the stack (root included) the line continues or opened. */
	matched: number;
	/** End of the whitespace at `pos`, and its column, after the new-container phase. */
	q: number;
	v: number;
}

/**
 * True when the line part at `q` (before `le`) may start a container: `>`, a digit of an ordered
 * marker, or a bullet followed by a blank or the line end. Small enough for V8 to inline into
 * `line()`, so the many lines that cannot (`**bold**`, `-->`, words) never call phase 2.
 */
export function mayOpenContainer(text: string, q: number, le: number): boolean {
	const ch = text.charCodeAt(q);
	if (ch === CH.GT || isDigit(ch)) return true;
	if (ch !== CH.DASH && ch !== CH.STAR && ch !== CH.PLUS) return false;
	if (q + 1 >= le) return true;
	const next = text.charCodeAt(q + 1);
	return next === CH.SPACE || next === CH.TAB;
}

// What an item's first character after its marker and one space means for phase 2's straight
// path: 0 text; 1 blank, digit or `>` (may open a container: the general loop decides); 2 a
// bullet character (a nested item when a blank follows); 3 `[` (maybe a task box).
const ITEM_TEXT_START = new Uint8Array(128);
for (let c = 0; c <= CH.SPACE; c++) ITEM_TEXT_START[c] = 1;
for (let c = CH.ZERO; c <= CH.NINE; c++) ITEM_TEXT_START[c] = 1;
ITEM_TEXT_START[CH.GT] = 1;
ITEM_TEXT_START[CH.DASH] = 2;
ITEM_TEXT_START[CH.STAR] = 2;
ITEM_TEXT_START[CH.PLUS] = 2;
ITEM_TEXT_START[CH.LBRACKET] = 3;

/**
 * True when an item's text starting at `p` (before `le`) after its marker `marker` (a char code)
 * and one space can neither open a nested container (`>`, a digit, a bullet and a blank) nor be a
 * task box (`[c]`), nor make the whole line a thematic break (the marker's character again), so
 * the item's text is a leaf for phase 3 to start.
 */
export function plainItemText(text: string, p: number, le: number, marker: number): boolean {
	const c = text.charCodeAt(p);
	const kind = c < 128 ? ITEM_TEXT_START[c] : 0;
	if (kind === 0) return true;
	if (kind === 3) return text.charCodeAt(p + 2) !== CH.RBRACKET;
	return kind === 2 && c !== marker && p + 1 < le && !isSpaceOrTab(text.charCodeAt(p + 1));
}

/** Phase 1: match line [ls, le) against the open containers of `stack`; sets `cur.pos/vcol/logical/matched`. */
export function continueOpenBlocks(
	text: string,
	stack: readonly Container[],
	ls: number,
	le: number,
	cur: LineCursor,
): void {
	let pos = ls;
	let vcol = 0;
	let logical = 0;
	let matched = 1;
	// End of the whitespace run at `pos` and its column; list items only consume inside the
	// run, so it is measured once per run, not once per nesting level.
	let wsEnd = pos;
	let wsCol = vcol;
	let measured = false;
	for (; matched < stack.length; matched++) {
		const c = stack[matched]!;
		if (!measured) {
			wsEnd = skipBlanks(text, pos, le);
			wsCol = columnAfter(text, pos, wsEnd, vcol);
			measured = true;
		}
		if (c.kind === QUOTE) {
			measured = false;
			if (wsEnd < le && text.charCodeAt(wsEnd) === CH.GT && wsCol - logical < 4) {
				afterQuoteMarker(text, wsEnd, wsCol, le, cur);
				pos = cur.pos;
				vcol = cur.vcol;
				logical = cur.logical;
				continue;
			}
			break;
		}
		// A list item continues through blank lines and lines indented to its content.
		if (wsEnd >= le) continue;
		if (wsCol < c.contentCol) break;
		while (vcol < c.contentCol) {
			vcol = text.charCodeAt(pos) === CH.TAB ? vcol + 4 - (vcol & 3) : vcol + 1;
			pos++;
		}
		logical = c.contentCol;
	}
	cur.pos = pos;
	cur.vcol = vcol;
	cur.logical = logical;
	cur.matched = matched;
}

/**
 * Past a block quote's `>` at offset `at` (column `col`) and the one optional space after it (a
 * tab counts as one column of it; the rest of the tab stays content): sets `cur.pos/vcol/logical`.
 */
export function afterQuoteMarker(text: string, at: number, col: number, le: number, cur: LineCursor): void {
	let pos = at + 1;
	let vcol = col + 1;
	let logical = vcol;
	if (pos < le) {
		const sp = text.charCodeAt(pos);
		if (sp === CH.SPACE) {
			pos++;
			vcol++;
			logical++;
		} else if (sp === CH.TAB) {
			pos++;
			logical = vcol + 1;
			vcol += 4 - (vcol & 3);
		}
	}
	cur.pos = pos;
	cur.vcol = vcol;
	cur.logical = logical;
}

/** The offset just past a list marker at `q` (`-`, `*`, `+`, or 1–9 digits and `.`/`)`), or -1 when there is none. */
export function listMarkerEnd(text: string, q: number, le: number): number {
	const ch = text.charCodeAt(q);
	if (ch === CH.DASH || ch === CH.STAR || ch === CH.PLUS) return q + 1;
	if (!isDigit(ch)) return -1;
	let k = q + 1;
	while (k < le && k - q < 9 && isDigit(text.charCodeAt(k))) k++;
	const d = k < le ? text.charCodeAt(k) : 0;
	return d === CH.DOT || d === CH.RPAREN ? k + 1 : -1;
}
