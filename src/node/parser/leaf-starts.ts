/**
 * Recognisers for the first line of a leaf block, each looking at the line part [p, end) that
 * remains after container prefixes and indentation. They return plain numbers so the block
 * pass can call them per line without allocating.
 */
import { CH, isAsciiLetter, isDigit, isSpaceOrTab, skipBlanks, trimmedEnd } from './chars';

/** ATX heading level (1–6) when [p, end) is `#…` followed by a space, tab or the line end; else 0. */
export function atxLevel(text: string, p: number, end: number): number {
	let k = p;
	while (k < end && text.charCodeAt(k) === CH.HASH && k - p < 7) k++;
	const level = k - p;
	if (level === 0 || level > 6) return 0;
	if (k < end && !isSpaceOrTab(text.charCodeAt(k))) return 0;
	return level;
}

/** Bounds of an ATX heading's text (opening and optional closing `#` run removed, trimmed). */
export function atxContent(text: string, p: number, end: number, level: number): [number, number] {
	const s = skipBlanks(text, p + level, end);
	let e = trimmedEnd(text, s, end);
	// A closing sequence is a run of `#` preceded by a space (or the whole content).
	let h = e;
	while (h > s && text.charCodeAt(h - 1) === CH.HASH) h--;
	if (h < e && (h === s || isSpaceOrTab(text.charCodeAt(h - 1)))) {
		e = trimmedEnd(text, s, h);
	}
	return [s, e];
}

/** Length of an opening code fence (``` or ~~~, 3+) at p, or 0. Backtick fences' info may not hold a backtick. */
export function fenceLength(text: string, p: number, end: number): number {
	const c = text.charCodeAt(p);
	if (c !== CH.BACKTICK && c !== CH.TILDE) return 0;
	let k = p + 1;
	while (k < end && text.charCodeAt(k) === c) k++;
	const len = k - p;
	if (len < 3) return 0;
	if (c === CH.BACKTICK) {
		for (let j = k; j < end; j++) if (text.charCodeAt(j) === CH.BACKTICK) return 0;
	}
	return len;
}

/** True when [p, end) closes a fence of `char` × `len`: a run at least as long, then only spaces. */
export function isFenceClose(text: string, p: number, end: number, char: number, len: number): boolean {
	let k = p;
	while (k < end && text.charCodeAt(k) === char) k++;
	return k - p >= len && skipBlanks(text, k, end) === end;
}

/** True for a thematic break: 3+ of the same `*`, `-` or `_`, spaces allowed between, nothing else. */
export function isThematicBreak(text: string, p: number, end: number): boolean {
	const c = text.charCodeAt(p);
	if (c !== CH.STAR && c !== CH.DASH && c !== CH.UNDERSCORE) return false;
	let count = 0;
	for (let k = p; k < end; k++) {
		const d = text.charCodeAt(k);
		if (d === c) count++;
		else if (!isSpaceOrTab(d)) return false;
	}
	return count >= 3;
}

/** Setext underline level: 1 for `===`, 2 for `---` (trailing spaces allowed), else 0. */
export function setextLevel(text: string, p: number, end: number): number {
	const c = text.charCodeAt(p);
	if (c !== CH.EQ && c !== CH.DASH) return 0;
	let k = p + 1;
	while (k < end && text.charCodeAt(k) === c) k++;
	if (skipBlanks(text, k, end) !== end) return 0;
	return c === CH.EQ ? 1 : 2;
}

/** True when [p, end) opens a block with `mark` (`$$` or `%%`) and does not close it on the same line after other text. */
export function opensFencedPair(text: string, p: number, end: number, mark: number): boolean {
	return text.charCodeAt(p) === mark && p + 1 < end && text.charCodeAt(p + 1) === mark;
}

/** True for a footnote definition start `[^label]:`. */
export function isFootnoteDef(text: string, p: number, end: number): boolean {
	if (text.charCodeAt(p) !== CH.LBRACKET || text.charCodeAt(p + 1) !== CH.CARET) return false;
	for (let k = p + 2; k < end; k++) {
		const c = text.charCodeAt(k);
		if (c === CH.RBRACKET) return k > p + 2 && k + 1 < end + 1 && text.charCodeAt(k + 1) === CH.COLON;
		if (c === CH.LBRACKET || isSpaceOrTab(c)) return false;
	}
	return false;
}

// CommonMark HTML block kinds 1–7; 6 and 7 end at a blank line, 1–5 at their end marker.
const RAW_TAGS = ['script', 'pre', 'style', 'textarea'];
const BLOCK_TAGS = new Set(
	(
		'address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div dl dt ' +
		'fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link ' +
		'main menu menuitem nav noframes ol optgroup option p param search section summary table tbody td tfoot th thead ' +
		'title tr track ul'
	).split(' '),
);
const OPEN_TAG =
	/^<[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*\s*\/?>\s*$/;
const CLOSE_TAG = /^<\/[A-Za-z][A-Za-z0-9-]*\s*>\s*$/;

/**
 * The CommonMark HTML block kind (1–7) that [p, end) starts, or 0. Kind 7 (any complete tag
 * alone on its line) cannot interrupt a paragraph, so it is only reported when `canBeKind7`.
 */
export function htmlBlockKind(text: string, p: number, end: number, canBeKind7: boolean): number {
	if (text.charCodeAt(p) !== CH.LT || p + 1 >= end) return 0;
	const c = text.charCodeAt(p + 1);
	if (c === CH.BANG) {
		if (text.startsWith('!--', p + 1)) return 2;
		if (text.startsWith('![CDATA[', p + 1)) return 5;
		return p + 2 < end && isAsciiLetter(text.charCodeAt(p + 2)) ? 4 : 0;
	}
	if (c === 63 /* ? */) return 3;
	let k = p + 1;
	if (c === CH.SLASH) k++;
	const nameStart = k;
	while (k < end && (isAsciiLetter(text.charCodeAt(k)) || isDigit(text.charCodeAt(k)))) k++;
	if (k === nameStart) return 0;
	const name = text.slice(nameStart, k).toLowerCase();
	const next = k < end ? text.charCodeAt(k) : CH.SPACE;
	const ends = isSpaceOrTab(next) || next === CH.GT || (next === CH.SLASH && text.charCodeAt(k + 1) === CH.GT);
	if (c !== CH.SLASH && RAW_TAGS.includes(name) && (isSpaceOrTab(next) || next === CH.GT)) return 1;
	if (BLOCK_TAGS.has(name) && ends) return 6;
	if (!canBeKind7) return 0;
	const line = text.slice(p, end);
	return OPEN_TAG.test(line) || CLOSE_TAG.test(line) ? 7 : 0;
}

/** True when the line [p, end) holds the end marker of raw-text HTML block kind 1 (`</script>`…). */
export function rawHtmlBlockEnds(text: string, p: number, end: number): boolean {
	const lower = text.slice(p, end).toLowerCase();
	return (
		lower.includes('</script>') ||
		lower.includes('</pre>') ||
		lower.includes('</style>') ||
		lower.includes('</textarea>')
	);
}
