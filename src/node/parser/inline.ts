/**
 * Inline scanning: links, embeds and tags inside the text of one leaf block (paragraph,
 * heading, table, comment…). The block pass hands over the leaf as segments — one per line,
 * container prefixes (`> `, list indentation) already cut off — and this scanner jumps from
 * one character that can start something to the next (cached native searches), looking at
 * the surrounding characters with `charCodeAt` only there.
 *
 * What hides text from indexing: code spans, `$math$`, inline HTML and `<!-- -->` comments,
 * backslash escapes, and the destination of a markdown link. `%% … %%` comments hide nothing:
 * Obsidian indexes links and tags inside them.
 */
import type { LinkCache } from '../../core/metadata';
import { CH, isAsciiLetter, isAsciiPunct, isDigit, isTagChar, isWhitespace, skipBlanks } from './chars';
import { loc, span } from './positions';
import { parseWikilinkInner } from './wikilink';
import { InlineSegments, SLOT_COMMENT_END, SLOT_DOUBLE_DOLLAR, SLOT_WIKI_CLOSE } from './inline-segments';

// Longest link label / destination looked at: bounds the work on pathological lines such as
// "[a [a [a …" while being far beyond any real link.
const MAX_LABEL = 1024;
const MAX_DEST = 2048;
const MAX_NESTING = 32;

/** Collects the segments of one leaf block (inline-segments.ts) and scans them. Reused across blocks. */
export class InlineScanner extends InlineSegments {
	/**
	 * Scan the collected segments, then clear them. In a table row a `|` separates cells, so a
	 * `#` right after it starts a tag as if it began a line.
	 */
	scan(table: boolean): void {
		const n = this.count;
		this.count = 0;
		if (n === 0) return;
		this.scanId++;
		const text = this.text;
		let s = 0;
		let segStart = this.segStart[0]!;
		let i = segStart;
		let end = this.segEnd[0]!;
		// Offset just past the last inline token; a `#` there starts a tag even when the
		// character before it is punctuation (`\[#tag`, `**#tag**` is handled separately).
		let tokenEnd = i;
		for (;;) {
			if (i >= end) {
				if (++s >= n) break;
				segStart = this.segStart[s]!;
				i = segStart;
				end = this.segEnd[s]!;
				tokenEnd = i;
				continue;
			}
			const next = this.nextSpecial(i);
			if (next >= end) {
				i = end;
				continue;
			}
			i = next;
			if (isEscaped(text, i, segStart)) {
				i++;
				tokenEnd = i;
				continue;
			}
			const c = text.charCodeAt(i);
			switch (c) {
				case CH.BACKTICK: {
					let j = i + 1;
					while (j < end && text.charCodeAt(j) === CH.BACKTICK) j++;
					if (this.findBacktickCloser(s, j, j - i, n)) {
						if (this.foundSeg !== s) {
							s = this.foundSeg;
							segStart = this.segStart[s]!;
							end = this.segEnd[s]!;
						}
						i = this.foundPos;
						tokenEnd = i;
					} else i = j;
					break;
				}
				case CH.LBRACKET: {
					// `![` is an embed unless its `!` is escaped.
					const embed =
						i > segStart && text.charCodeAt(i - 1) === CH.BANG && !isEscaped(text, i - 1, segStart);
					const start = embed ? i - 1 : i;
					const after =
						i + 1 < end && text.charCodeAt(i + 1) === CH.LBRACKET
							? this.wikilink(start, i, end, s, embed)
							: this.markdownLink(start, i, end, s, embed);
					if (after > 0) {
						i = after;
						tokenEnd = i;
					} else i++;
					break;
				}
				case CH.HASH:
					i = this.tag(i, end, s, i === tokenEnd || i === segStart || this.tagMayStart(i, segStart, table));
					break;
				default: {
					// `<` (inline HTML, a comment) or `$` (math): either may close in a later segment.
					const after = c === CH.LT ? this.html(i, end, s, n) : this.math(i, end, s, n);
					if (after >= 0) {
						if (this.foundSeg !== s) {
							s = this.foundSeg;
							segStart = this.segStart[s]!;
							end = this.segEnd[s]!;
						}
						i = after;
						tokenEnd = i;
					} else i++;
				}
			}
		}
	}

	/** Whether a `#` at `i` (not at a segment start or right after a token) may start a tag. */
	private tagMayStart(i: number, segStart: number, table: boolean): boolean {
		const text = this.text;
		const p = text.charCodeAt(i - 1);
		if (isWhitespace(p)) return true;
		if (table && p === CH.PIPE) return true;
		// Right after a backslash escape (`\[#tag`): the escape is an inline token.
		if (isAsciiPunct(p) && isEscaped(text, i - 1, segStart)) return true;
		// After an emphasis/highlight/strike delimiter run that can open (`**#tag**`, `==#x==`):
		// the run must itself start the text or follow whitespace or punctuation, otherwise it
		// is intraword (`a*#b`) and the `#` is not a tag.
		if (p === CH.STAR || p === CH.UNDERSCORE || p === CH.TILDE || p === CH.EQ) {
			let k = i - 1;
			while (k > segStart && text.charCodeAt(k - 1) === p) k--;
			if (k === segStart) return true;
			const before = text.charCodeAt(k - 1);
			return isWhitespace(before) || isAsciiPunct(before);
		}
		return false;
	}

	/** Try a tag at `i` (a `#`); returns where scanning continues. */
	private tag(i: number, end: number, s: number, mayStart: boolean): number {
		const text = this.text;
		let j = i + 1;
		if (!mayStart) {
			// Not a tag, but the run of tag characters cannot hold another tag start either.
			while (j < end && isTagChar(text.charCodeAt(j))) j++;
			return j;
		}
		let allDigits = true;
		while (j < end) {
			const c = text.charCodeAt(j);
			if (!isTagChar(c)) break;
			if (allDigits && !isDigit(c)) allDigits = false;
			j++;
		}
		if (j === i + 1) return j;
		// `#1984` is not a tag (a number), `#y1984` is.
		if (allDigits) return j;
		const line = this.segLine[s]!;
		const ls = this.segLineStart[s]!;
		this.sink.tags.push({ tag: text.slice(i, j), position: span(loc(line, ls, i), loc(line, ls, j)) });
		return j;
	}

	/**
	 * A wikilink or embed whose `[[` is at `open`; `start` is where `original` begins (the `!`
	 * for an embed). Returns the offset after `]]`, or -1 when this is not a link.
	 */
	private wikilink(start: number, open: number, end: number, s: number, embed: boolean): number {
		const text = this.text;
		const search = this.search;
		const k = search.next(SLOT_WIKI_CLOSE, open + 2);
		if (k + 1 >= end) return -1;
		// A second `[[` before the `]]`: the first one is plain text; the scan restarts at the
		// inner one.
		for (let b = search.next(0, open + 2); b < k; b = search.next(0, b + 1)) {
			if (text.charCodeAt(b + 1) === CH.LBRACKET) return -1;
		}
		const parts = parseWikilinkInner(text, open + 2, k);
		if (parts === null) return -1;
		const after = k + 2;
		const line = this.segLine[s]!;
		const ls = this.segLineStart[s]!;
		const cache: LinkCache = {
			link: parts.link,
			original: text.slice(start, after),
			displayText: parts.displayText,
			position: span(loc(line, ls, start), loc(line, ls, after)),
		};
		(embed ? this.sink.embeds : this.sink.links).push(cache);
		return after;
	}

	/**
	 * A markdown link `[label](dest "title")` whose `[` is at `open` (`start` is the `!` of an
	 * image). Indexed only when `dest` is relative (no URL scheme) and decodes with decodeURI.
	 * Returns the offset after `)` (even when not indexed, so its text is skipped), or -1.
	 */
	private markdownLink(start: number, open: number, end: number, s: number, embed: boolean): number {
		const text = this.text;
		// Label: up to the matching `]`, nested brackets balanced, escapes skipped. The length
		// and nesting limits keep lines full of `[` linear.
		let k = open + 1;
		let depth = 0;
		const labelLimit = Math.min(end, open + MAX_LABEL);
		for (; k < labelLimit; k++) {
			const c = text.charCodeAt(k);
			if (c === CH.BACKSLASH) k++;
			else if (c === CH.LBRACKET) {
				// Deeper bracket nesting than any real label: give up (keeps "[a [a [a …" linear).
				if (++depth > MAX_NESTING) return -1;
			} else if (c === CH.RBRACKET) {
				if (depth === 0) break;
				depth--;
			}
		}
		if (k >= labelLimit || k + 1 >= end || text.charCodeAt(k + 1) !== CH.LPAREN) return -1;
		const labelEnd = k;
		const destLimit = Math.min(end, k + MAX_DEST);
		k += 2;
		k = skipBlanks(text, k, end);
		let destStart = k;
		let destEnd = k;
		if (k < end && text.charCodeAt(k) === CH.LT) {
			destStart = k + 1;
			k++;
			while (k < destLimit) {
				const c = text.charCodeAt(k);
				if (c === CH.GT || c === CH.LT) break;
				if (c === CH.BACKSLASH) k++;
				k++;
			}
			if (k >= destLimit || text.charCodeAt(k) !== CH.GT) return -1;
			destEnd = k;
			k++;
		} else {
			let parens = 0;
			while (k < destLimit) {
				const c = text.charCodeAt(k);
				if (c <= CH.SPACE) break;
				if (c === CH.BACKSLASH) {
					k += 2;
					continue;
				}
				if (c === CH.LPAREN) {
					// cmark's limit on nested parentheses in a destination.
					if (++parens > MAX_NESTING) return -1;
				} else if (c === CH.RPAREN) {
					if (parens === 0) break;
					parens--;
				}
				k++;
			}
			if (k >= destLimit && destLimit < end) return -1;
			destEnd = k;
		}
		k = skipBlanks(text, k, end);
		if (k < end) {
			const q = text.charCodeAt(k);
			if ((q === CH.QUOTE || q === CH.APOS || q === CH.LPAREN) && k > destEnd) {
				const close = q === CH.LPAREN ? CH.RPAREN : q;
				k++;
				while (k < destLimit && text.charCodeAt(k) !== close) {
					if (text.charCodeAt(k) === CH.BACKSLASH) k++;
					k++;
				}
				if (k >= destLimit) return -1;
				k++;
				k = skipBlanks(text, k, end);
			}
		}
		if (k >= end || text.charCodeAt(k) !== CH.RPAREN) return -1;
		const after = k + 1;
		if (destEnd > destStart && !hasScheme(text, destStart, destEnd)) {
			let link: string | null;
			try {
				link = decodeURI(text.slice(destStart, destEnd));
			} catch {
				// Undecodable (`%E0%A4%A`): Obsidian does not index it.
				link = null;
			}
			if (link !== null) {
				const line = this.segLine[s]!;
				const ls = this.segLineStart[s]!;
				const cache: LinkCache = {
					link,
					original: text.slice(start, after),
					displayText: text.slice(open + 1, labelEnd),
					position: span(loc(line, ls, start), loc(line, ls, after)),
				};
				(embed ? this.sink.embeds : this.sink.links).push(cache);
			}
		}
		return after;
	}

	/**
	 * Inline HTML at `i` (a `<`): a comment `<!-- … -->` (may cross lines), a tag, or an
	 * autolink. Returns the offset after it (foundSeg set), or -1 when `<` is plain text.
	 */
	private html(i: number, end: number, s: number, n: number): number {
		const text = this.text;
		this.foundSeg = s;
		if (i + 1 >= end) return -1;
		const c = text.charCodeAt(i + 1);
		if (c === CH.BANG) {
			if (text.startsWith('!--', i + 1)) {
				// `<!-->` and `<!--->` are complete (empty) comments in CommonMark.
				if (text.startsWith('>', i + 4) && i + 4 < end) return i + 5;
				if (text.startsWith('->', i + 4) && i + 5 < end) return i + 6;
				return this.findAcross(SLOT_COMMENT_END, s, i + 4, n) ? this.foundPos : -1;
			}
			return -1;
		}
		let k = i + 1;
		if (c === CH.SLASH) k++;
		if (k >= end || !isAsciiLetter(text.charCodeAt(k))) return -1;
		// A tag or an autolink: runs to the next `>` on the line, with no `<` before it.
		for (k++; k < end; k++) {
			const d = text.charCodeAt(k);
			if (d === CH.GT) return k + 1;
			if (d === CH.LT) return -1;
		}
		return -1;
	}

	/**
	 * Inline math at `i` (a `$`): `$$…$$` (may cross lines), or `$…$` on one line whose first
	 * and last characters are not whitespace and whose closer is not followed by a digit (so
	 * "costs $5 and $6" is text). Returns the offset after it (foundSeg set), or -1.
	 */
	private math(i: number, end: number, s: number, n: number): number {
		const text = this.text;
		this.foundSeg = s;
		if (i + 1 >= end) return -1;
		if (text.charCodeAt(i + 1) === CH.DOLLAR) {
			return this.findAcross(SLOT_DOUBLE_DOLLAR, s, i + 2, n) ? this.foundPos : -1;
		}
		if (isWhitespace(text.charCodeAt(i + 1))) return -1;
		// Whether a `$` closes depends only on its own neighbours, so once no closer was found
		// to the end of this line, none will be for a later `$` on it either.
		if (this.mathFailSeg === s && this.mathFailScan === this.scanId) return -1;
		for (let k = i + 1; k < end; k++) {
			const d = text.charCodeAt(k);
			if (d === CH.BACKSLASH) {
				k++;
				continue;
			}
			if (d === CH.DOLLAR && k > i + 1) {
				if (isWhitespace(text.charCodeAt(k - 1))) continue;
				if (k + 1 < end && isDigit(text.charCodeAt(k + 1))) continue;
				return k + 1;
			}
		}
		this.mathFailSeg = s;
		this.mathFailScan = this.scanId;
		return -1;
	}
}

/** True when the character at `i` is backslash-escaped (an odd run of `\\` since `from` before it). */
function isEscaped(text: string, i: number, from: number): boolean {
	let k = i;
	while (k > from && text.charCodeAt(k - 1) === CH.BACKSLASH) k--;
	return ((i - k) & 1) === 1;
}

/** True if [start, end) begins with a URL scheme (`https:`, `obsidian:`, `mailto:` …). */
function hasScheme(text: string, start: number, end: number): boolean {
	if (!isAsciiLetter(text.charCodeAt(start))) return false;
	for (let k = start + 1; k < end; k++) {
		const c = text.charCodeAt(k);
		if (c === CH.COLON) return true;
		if (!(isAsciiLetter(c) || isDigit(c) || c === CH.PLUS || c === CH.DOT || c === CH.DASH)) return false;
	}
	return false;
}
