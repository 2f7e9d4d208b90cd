/**
 * Block ids: `^id` (letters, digits, `-`) ending the last line of a paragraph or list item,
 * after whitespace — or standing alone on the line, when it names the block before it.
 */
import { CH, isAsciiLetter, isDigit, isWhitespace, trimmedEnd } from './chars';

/**
 * Offset of the `^` of a block id ending the line part [s, e), or -1. The id runs from the
 * caret + 1 to `trimmedEnd(text, s, e)`.
 */
export function blockIdCaret(text: string, s: number, e: number): number {
	const end = trimmedEnd(text, s, e);
	let k = end;
	while (k > s) {
		const c = text.charCodeAt(k - 1);
		if (!(isAsciiLetter(c) || isDigit(c) || c === CH.DASH)) break;
		k--;
	}
	if (k === end || k - 1 < s || text.charCodeAt(k - 1) !== CH.CARET) return -1;
	const caret = k - 1;
	if (caret > s && !isWhitespace(text.charCodeAt(caret - 1))) return -1;
	return caret;
}
