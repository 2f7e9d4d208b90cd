/**
 * How Obsidian turns the text between `[[` and `]]` into `link` and `displayText`; shared by
 * body wikilinks/embeds and frontmatter links.
 */
import { isWhitespace } from './chars';

/** The indexed parts of a wikilink. */
export interface WikilinkParts {
	link: string;
	displayText: string;
}

/** `link` split on `#`, empty parts dropped, joined with " > " (`a#h1#h2` → `a > h1 > h2`). */
export function defaultDisplayText(link: string): string {
	let hash = link.indexOf('#');
	if (hash < 0) return link;
	let out = '';
	let from = 0;
	for (;;) {
		if (hash > from) out = out.length === 0 ? link.slice(from, hash) : out + ' > ' + link.slice(from, hash);
		if (hash === link.length) return out;
		from = hash + 1;
		hash = link.indexOf('#', from);
		if (hash < 0) hash = link.length;
	}
}

/**
 * True for exactly the characters String#trim removes: the Unicode spaces of `isWhitespace`, but
 * of the ASCII controls only tab to carriage return.
 */
function isTrimmable(c: number): boolean {
	return c < 32 ? c >= 9 && c <= 13 : isWhitespace(c);
}

/**
 * Parse the inside of `[[…]]`, the characters [start, end) of `text`; null when it is empty
 * (`[[]]` is not a link). Works on offsets so only the result strings are allocated.
 */
export function parseWikilinkInner(text: string, start: number, end: number): WikilinkParts | null {
	while (start < end && isTrimmable(text.charCodeAt(start))) start++;
	while (end > start && isTrimmable(text.charCodeAt(end - 1))) end--;
	if (start === end) return null;
	// A `|` in first position is part of the link (`[[|alias]]` links to "|alias"): Obsidian
	// only splits at a bar that has something before it.
	let bar = -1;
	for (let k = start + 1; k < end; k++) {
		if (text.charCodeAt(k) === 124) {
			bar = k;
			break;
		}
	}
	if (bar < 0) {
		const link = text.slice(start, end);
		return { link, displayText: defaultDisplayText(link) };
	}
	let linkEnd = bar;
	while (linkEnd > start && isTrimmable(text.charCodeAt(linkEnd - 1))) linkEnd--;
	// In tables the bar is written `\|`; the backslash belongs to the table, not the link.
	if (linkEnd > start && text.charCodeAt(linkEnd - 1) === 92) {
		linkEnd--;
		while (linkEnd > start && isTrimmable(text.charCodeAt(linkEnd - 1))) linkEnd--;
	}
	const link = text.slice(start, linkEnd);
	let aliasStart = bar + 1;
	while (aliasStart < end && isTrimmable(text.charCodeAt(aliasStart))) aliasStart++;
	return { link, displayText: aliasStart < end ? text.slice(aliasStart, end) : defaultDisplayText(link) };
}
