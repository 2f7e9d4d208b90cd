/**
 * The frontmatter block's bounds: a first line exactly `---`, closed by the next line exactly
 * `---` — shared by the Node parser and a grep that reads a note's bytes (whose body starts after
 * the block without decoding the note's saved metadata).
 */

/** Where the frontmatter block sits in the text. */
export interface FrontmatterBlock {
	/** Offset of the first YAML character (just after the opening `---` line). */
	yamlStart: number;
	/** Offset just past the last YAML character (the newline before the closing `---`). */
	yamlEnd: number;
	/** 0-based line of the closing `---`. */
	closeLine: number;
	/** Offset of the closing `---` line's first character. */
	closeLineStart: number;
	/** Offset where the body starts (after the closing line's newline), or the text length. */
	bodyStart: number;
}

/** True if the line [start, end) is exactly `---` (a trailing `\r` already excluded). */
function isDashLine(text: string, start: number, end: number): boolean {
	return (
		end - start === 3 &&
		text.charCodeAt(start) === 45 &&
		text.charCodeAt(start + 1) === 45 &&
		text.charCodeAt(start + 2) === 45
	);
}

/** Locate a frontmatter block: a first line exactly `---`, closed by the next line exactly `---`. */
export function findFrontmatter(text: string): FrontmatterBlock | null {
	if (!text.startsWith('---')) return null;
	let firstEnd = text.indexOf('\n');
	if (firstEnd < 0) return null;
	const yamlStart = firstEnd + 1;
	if (firstEnd > 0 && text.charCodeAt(firstEnd - 1) === 13) firstEnd--;
	if (!isDashLine(text, 0, firstEnd)) return null;
	let line = 1;
	let start = yamlStart;
	const len = text.length;
	while (start <= len) {
		let nl = text.indexOf('\n', start);
		if (nl < 0) nl = len;
		let end = nl;
		if (end > start && text.charCodeAt(end - 1) === 13) end--;
		if (isDashLine(text, start, end)) {
			const yamlEnd = start > yamlStart ? start - 1 : yamlStart;
			return { yamlStart, yamlEnd, closeLine: line, closeLineStart: start, bodyStart: nl < len ? nl + 1 : len };
		}
		if (nl >= len) return null;
		start = nl + 1;
		line++;
	}
	return null;
}
