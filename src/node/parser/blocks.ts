/**
 * The block pass: one walk over the lines of a note body, CommonMark-style (open containers
 * are matched against each line, then new containers, then the leaf), extended with
 * Obsidian's blocks (`%%` comments, `$$` math, callouts, tables, footnotes). It produces
 * sections, headings, list items and block ids itself and hands each leaf's text to the
 * inline scanner, so every character is looked at a small, fixed number of times.
 *
 * Each line goes through CommonMark's three phases: {@link continueOpenBlocks} (open-blocks.ts),
 * `openNewBlocks` and `restOfLine` here; the leaf steps and the state live in leaf-blocks.ts.
 */
import { CH, columnAfter, isAsciiLetter, isDigit, isSpaceOrTab, skipBlanks } from './chars';
import { Container, ITEM, QUOTE, ROOT } from './containers';
import { isFootnoteDef, setextLevel } from './leaf-starts';
import { LeafBlocks, MAX_NESTING } from './leaf-blocks';
import { L_COMMENT, L_FENCE, L_FOOTNOTE, L_NONE, L_PARA, L_TABLE } from './leaf-kinds';
import {
	afterQuoteMarker,
	continueOpenBlocks,
	listMarkerEnd,
	mayOpenContainer,
	plainItemText,
	type LineCursor,
} from './open-blocks';
import type { MetadataSink } from './sink';

export { MAX_NESTING } from './leaf-blocks';

/** Runs the block pass over one note body, writing into a MetadataSink. */
export class BlockParser extends LeafBlocks {
	// Where the current line stands between its phases (one object, reused for every line).
	private readonly cur: LineCursor = { pos: 0, vcol: 0, logical: 0, matched: 1, q: 0, v: 0 };

	/** Parse `text` from offset `start`, the first character of 0-based line `line`, into `sink`. */
	parse(text: string, sink: MetadataSink, start: number, line: number): void {
		this.text = text;
		this.sink = sink;
		this.inline.reset(text, sink);
		this.search.reset(text);
		this.stack.length = 0;
		this.stack.push(new Container(ROOT));
		this.leaf = L_NONE;
		this.leafContainer = this.stack[0]!;
		this.section = null;
		this.tbLineEnd = -1;
		const len = text.length;
		let p = start;
		let ln = line;
		for (;;) {
			// An empty line needs no search (about a third of all lines in real notes).
			let nl = p < len && text.charCodeAt(p) === CH.LF ? p : text.indexOf('\n', p);
			if (nl < 0) nl = len;
			let e = nl;
			if (e > p && text.charCodeAt(e - 1) === CH.CR) e--;
			this.line(ln, p, e);
			if (nl >= len) break;
			p = nl + 1;
			ln++;
		}
		this.closeLeaf();
		this.closeContainers(1);
		this.finishSection();
		// Do not keep the note alive until the next call.
		this.text = '';
		this.inline.release();
		this.search.release();
	}
	/** Process line `ln`: characters [ls, le) (line end excludes `\r\n`), phase by phase. */
	private line(ln: number, ls: number, le: number): void {
		const text = this.text;
		const stack = this.stack;
		// A blank line outside any container and verbatim leaf only ends the open leaf (phase 3's
		// blank-line rule, with phases 1 and 2 trivially empty): a third of all lines in real notes.
		if (stack.length === 1) {
			if (ls === le && (this.leaf < L_FENCE || this.leaf > L_COMMENT)) {
				if (this.leaf !== L_NONE) this.closeLeaf();
				return;
			}
			// Likewise a root paragraph's next line that starts with a letter (or any non-ASCII
			// character): it cannot open a container, underline, delimit a table or interrupt
			// the paragraph, so it continues it (phase 3's rule) without the three phases.
			if (this.leaf === L_PARA && ls < le) {
				const c = text.charCodeAt(ls);
				if (c >= 128 || isAsciiLetter(c)) {
					this.inline.add(ls, le, ln, ls);
					this.paraLines++;
					this.markContent(ln, ls, le);
					return;
				}
			}
		}
		// 1. Which open containers does this line continue? Outside any container there is
		// nothing to match, and the line starts at column 0 (most lines of most notes).
		// The cursor carries the line between the phases: phase 2 reads it and leaves its result there.
		const cur = this.cur;
		if (stack.length > 1) continueOpenBlocks(text, stack, ls, le, cur);
		else {
			cur.pos = ls;
			cur.vcol = 0;
			cur.logical = 0;
			cur.matched = 1;
		}
		const pos = cur.pos;
		const logical = cur.logical;
		let matched = cur.matched;
		const allMatched = matched === stack.length;
		const q = skipBlanks(text, pos, le);
		const v = columnAfter(text, pos, q, cur.vcol);
		// A verbatim leaf (code, math, comment, HTML) takes the line whole unless it ends here.
		if (
			allMatched &&
			this.leaf >= L_FENCE &&
			this.leaf <= L_COMMENT &&
			this.verbatimLine(ln, ls, le, pos, q, v - logical)
		)
			return;
		// 2. New containers opening on this line: only a `>`, a bullet or a digit, not indented as code, can start one.
		let first = q;
		let indent = v - logical;
		let opened = false;
		if (q < le && indent < 4 && mayOpenContainer(text, q, le)) {
			cur.q = q;
			cur.v = v;
			opened = this.openSimpleItem(ln, ls, le) || this.openNewBlocks(ln, ls, le);
			first = cur.q;
			indent = cur.v - cur.logical;
			matched = cur.matched;
		}
		// 3. The rest of the line. Its common case, written out here rather than in a method so it
		// costs no call: a non-blank line starting a leaf with no leaf open (most lines of notes
		// written a paragraph per line, every list item's text), which has no leaf to continue
		// lazily, so the containers the line did not match end here.
		if (first < le && this.leaf === L_NONE) {
			if (matched < stack.length) this.closeContainers(matched);
			this.startLeaf(ln, ls, le, first, indent);
		} else this.restOfLine(ln, ls, le, first, indent, matched, opened);
	}

	/**
	 * Phase 2's common case as one straight path instead of {@link openNewBlocks}' general loop: a
	 * list marker at `cur.q` (column `cur.v`) — a bullet, or a digit and `.`/`)` — then one space
	 * and text that cannot open another container, be a task box or make the line a thematic break
	 * (`- word`, `1. **word**`, `- [[link]]`). Opens the item exactly as the loop would, leaves the
	 * cursor at its text and returns true, or returns false having changed nothing.
	 */
	private openSimpleItem(ln: number, ls: number, le: number): boolean {
		const text = this.text;
		const stack = this.stack;
		const cur = this.cur;
		const q = cur.q;
		const matched = cur.matched;
		const ch = text.charCodeAt(q);
		// `mayOpenContainer` let through only `>`, a digit or a bullet.
		if (ch === CH.GT) return false;
		let end = q + 1;
		if (isDigit(ch)) {
			// One digit (longer numbers take the loop). Under a paragraph only a list starting at 1,
			// or the next item of the list the line left (`2.` after item 1's text), may interrupt it.
			const d = text.charCodeAt(q + 1);
			if (d !== CH.DOT && d !== CH.RPAREN) return false;
			if (ch !== 49 && this.leaf === L_PARA) {
				const next = matched < stack.length ? stack[matched]! : null;
				if (next === null || next.kind !== ITEM || next.list === null || next.list.marker !== d) return false;
			}
			end = q + 2;
		}
		if (
			end + 1 >= le ||
			text.charCodeAt(end) !== CH.SPACE ||
			stack.length > MAX_NESTING ||
			!plainItemText(text, end + 1, le, ch)
		)
			return false;
		this.closeLeaf();
		this.closeContainers(matched);
		const col = cur.v + (end - q) + 1;
		this.openItem(ln, ls, le, cur.pos, q, end === q + 1 ? ch : text.charCodeAt(end - 1), col);
		cur.q = end + 1;
		cur.v = col;
		cur.logical = col;
		cur.matched = stack.length;
		return true;
	}

	/**
	 * Phase 2: block quotes and list items that open on the line, from the cursor phase 1 left
	 * (`cur.pos` at column `cur.vcol`, content column `cur.logical`, `cur.matched` containers).
	 * Returns whether any opened; leaves `cur.q/v` at the content's first non-blank, `cur.logical/matched`.
	 */
	private openNewBlocks(ln: number, ls: number, le: number): boolean {
		const text = this.text;
		const stack = this.stack;
		const cur = this.cur;
		let opened = false;
		for (;;) {
			// The end of the whitespace at the cursor and its column, valid for phase 3 at every exit.
			const q = skipBlanks(text, cur.pos, le);
			const v = columnAfter(text, cur.pos, q, cur.vcol);
			cur.q = q;
			cur.v = v;
			if (q >= le || v - cur.logical >= 4 || stack.length > MAX_NESTING) break;
			const ch = text.charCodeAt(q);
			if (ch === CH.GT) {
				this.closeLeaf();
				this.closeContainers(cur.matched);
				this.openQuote(ln, ls, q, le);
				afterQuoteMarker(text, q, v, le, cur);
				cur.matched = stack.length;
				opened = true;
				continue;
			}
			const markerEnd = listMarkerEnd(text, q, le);
			if (markerEnd < 0) break;
			const ordered = isDigit(ch);
			const startsAtOne = ordered && markerEnd === q + 2 && ch === 49; // 49: '1'
			if (markerEnd < le && !isSpaceOrTab(text.charCodeAt(markerEnd))) break;
			if (!ordered && this.breakFrom(q, le)) break;
			const marker = ordered ? text.charCodeAt(markerEnd - 1) : ch;
			const k = skipBlanks(text, markerEnd, le);
			const mv = v + (markerEnd - q);
			const cv = columnAfter(text, markerEnd, k, mv);
			const empty = k >= le;
			const matched = cur.matched;
			if (this.leaf === L_PARA) {
				// A setext underline (`-`) beats an empty list item under a paragraph.
				if (!opened && matched === stack.length && ch === CH.DASH && setextLevel(text, q, le) === 2) break;
				// Only a sibling of an open item may follow a paragraph freely; a new list must
				// not be empty and, if ordered, must start at 1 (CommonMark's interrupt rule).
				const next = matched < stack.length ? stack[matched]! : null;
				const joins = next !== null && next.kind === ITEM && next.list !== null && next.list.marker === marker;
				if (!joins && (empty || (ordered && !startsAtOne))) break;
			}
			let contentCol: number;
			let contentPos: number;
			if (empty) {
				contentCol = mv + 1;
				contentPos = le;
			} else if (cv - mv > 4) {
				// Five or more spaces: the content is indented code starting one column in.
				contentCol = mv + 1;
				contentPos = markerEnd + 1;
			} else {
				contentCol = cv;
				contentPos = k;
			}
			this.closeLeaf();
			this.closeContainers(matched);
			const item = this.openItem(ln, ls, le, cur.pos, q, marker, contentCol);
			cur.matched = stack.length;
			opened = true;
			// Task checkbox `[c]` then a space: its character is the item's `task`; the rest of
			// the line is the item's content (which may itself open a nested list: `- [ ] 1. x`).
			let pos = contentPos;
			if (pos + 2 < le && text.charCodeAt(pos) === CH.LBRACKET && text.charCodeAt(pos + 2) === CH.RBRACKET) {
				if (pos + 3 === le || isSpaceOrTab(text.charCodeAt(pos + 3))) {
					item.task = text.charAt(pos + 1);
					pos = pos + 3 < le ? pos + 4 : le;
				}
			}
			cur.pos = pos;
			cur.vcol = contentCol + (pos - contentPos);
			cur.logical = cur.vcol;
		}
		return opened;
	}

	/**
	 * Phase 3 for every line {@link line} does not start a leaf on directly: lazy paragraph
	 * continuation, a blank line, or the leaf's content (continued or started) at `q`, indented
	 * `indent` columns past the content column, after `matched` containers (fewer than are open
	 * only when the line neither continued every container nor `opened` one).
	 */
	private restOfLine(
		ln: number,
		ls: number,
		le: number,
		q: number,
		indent: number,
		matched: number,
		opened: boolean,
	): void {
		const text = this.text;
		const stack = this.stack;
		const blank = q >= le;
		if (matched < stack.length) {
			if (this.leaf === L_PARA && !blank && !this.interruptsParagraph(q, le, indent)) {
				this.inline.add(q, le, ln, ls);
				this.paraLines++;
				this.markContent(ln, ls, le);
				return;
			}
			this.closeLeaf();
			this.closeContainers(matched);
		}
		if (blank) {
			if (this.leaf !== L_NONE) this.closeLeaf();
			const top = stack[stack.length - 1]!;
			if (opened || top.kind === QUOTE) this.markContent(ln, ls, le);
			else if (top.kind === ITEM && !top.blankAfterOwn) {
				top.blankAfterOwn = true;
				top.blankLine = ln;
				top.blankLineStart = ls;
			}
			return;
		}
		const leaf = this.leaf;
		if (leaf === L_PARA) {
			if (indent < 4) {
				const sl = setextLevel(text, q, le);
				if (sl > 0) {
					this.setextHeading(sl, ln, ls, le);
					return;
				}
				const first = text.charCodeAt(q);
				if (
					this.paraLines === 1 &&
					(first === CH.PIPE || first === CH.DASH || first === CH.COLON) &&
					this.tableStarts(q, le)
				) {
					this.leaf = L_TABLE;
					if (this.leafContainer.kind === ROOT && this.section !== null) this.section.type = 'table';
					this.markContent(ln, ls, le);
					return;
				}
			}
			if (indent >= 4 || !this.interruptsParagraph(q, le, indent)) {
				this.inline.add(q, le, ln, ls);
				this.paraLines++;
				this.markContent(ln, ls, le);
				return;
			}
			this.closeLeaf();
		} else if (leaf === L_TABLE || leaf === L_FOOTNOTE) {
			const interrupted =
				indent < 4 &&
				(this.interruptsParagraph(q, le, indent) || (leaf === L_FOOTNOTE && isFootnoteDef(text, q, le)));
			if (!interrupted) {
				this.inline.add(q, le, ln, ls);
				this.markContent(ln, ls, le);
				return;
			}
			this.closeLeaf();
		}
		this.startLeaf(ln, ls, le, q, indent);
	}
}
