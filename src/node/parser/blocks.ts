/**
 * The block pass: one walk over the lines of a note body, CommonMark-style (open containers
 * are matched against each line, then new containers, then the leaf), extended with
 * Obsidian's blocks (`%%` comments, `$$` math, callouts, tables, footnotes). It produces
 * sections, headings, list items and block ids itself and hands each leaf's text to the
 * inline scanner, so every character is looked at a small, fixed number of times.
 */
import type { ListItemCache, Loc, SectionCache } from '../../core/metadata';
import { blockIdCaret, trimmedEnd } from './block-ids';
import { CH, isDigit, isSpaceOrTab } from './chars';
import { Container, ITEM, ListInfo, QUOTE, ROOT } from './containers';
import { ForwardSearch } from './forward-search';
import { InlineScanner } from './inline';
import {
	atxContent,
	atxLevel,
	fenceLength,
	htmlBlockKind,
	isFenceClose,
	isFootnoteDef,
	isThematicBreak,
	opensFencedPair,
	rawHtmlBlockEnds,
	setextLevel,
} from './leaf-starts';
import { loc, span } from './positions';
import type { MetadataSink } from './sink';
import { countCells, delimiterCells, hasPipe } from './tables';

// Leaf kinds. The verbatim ones (FENCE…COMMENT) swallow lines until their end marker.
const L_NONE = 0;
const L_PARA = 1;
const L_FENCE = 2;
const L_ICODE = 3;
const L_HTML = 4;
const L_MATH = 5;
const L_COMMENT = 6;
const L_TABLE = 7;
const L_FOOTNOTE = 8;

// End markers searched for inside lines: HTML block kinds 2–5 (slot = kind - 2), `$$`, `%%`.
// A cached forward search keeps a long unclosed block linear (a per-line indexOf would rescan
// the rest of the note on every line).
const END_MARKERS = ['-->', '?>', '>', ']]>', '$$', '%%'];
const SLOT_MATH = 4;
const SLOT_COMMENT = 5;

/**
 * Block quotes and list items nested deeper than this are not opened: the rest of the line is
 * content of the innermost one. Real notes nest a handful of levels; without a bound, one line
 * of 500,000 `>` or `- ` allocates a container per marker and costs seconds per megabyte.
 */
export const MAX_NESTING = 256;

/** Runs the block pass over one note body, writing into a MetadataSink. */
export class BlockParser {
	// The note being parsed and where its metadata goes; set by `parse`. One parser is reused
	// for every note (no per-note setup allocations), so all state is reset there.
	private text = '';
	private sink: MetadataSink;
	private readonly inline: InlineScanner;
	private readonly stack: Container[] = [];
	private readonly search = new ForwardSearch(END_MARKERS);

	// The open leaf block.
	private leaf = L_NONE;
	private leafContainer: Container;
	private paraLines = 0;
	private fenceChar = 0;
	private fenceLen = 0;
	private htmlKind = 0;

	// `breakFrom`'s memo for one line and marker character (see there).
	private tbLineEnd = -1;
	private tbChar = 0;
	private tbFirst = 0;
	private tbThird = -1;

	// The open root-level section and the end of its last non-blank line.
	private section: SectionCache | null = null;
	private secLine = 0;
	private secLineStart = 0;
	private secEnd = 0;

	constructor(sink: MetadataSink) {
		this.sink = sink;
		this.inline = new InlineScanner(sink);
		this.leafContainer = new Container(ROOT);
	}

	/** Parse `text` from offset `start`, the first character of 0-based line `line`, into `sink`. */
	parse(text: string, sink: MetadataSink, start: number, line: number): void {
		this.text = text;
		this.sink = sink;
		this.inline.reset(text, sink);
		this.search.reset(text);
		this.stack.length = 0;
		this.stack.push(new Container(ROOT));
		this.leaf = L_NONE;
		this.leafContainer = this.stack[0];
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

	/** Process line `ln`: characters [ls, le) (line end excludes `\r\n`). */
	private line(ln: number, ls: number, le: number): void {
		const text = this.text;
		const stack = this.stack;
		let pos = ls;
		let vcol = 0; // virtual column of `pos` (tabs expanded to multiples of 4)
		let logical = 0; // column where the current container's content starts (≤ vcol)

		// 1. Which open containers does this line continue?
		let matched = 1;
		// End of the whitespace run at `pos` and its column; list items only consume inside the
		// run, so it is measured once per run, not once per nesting level.
		let wsEnd = pos;
		let wsCol = vcol;
		let measured = false;
		for (; matched < stack.length; matched++) {
			const c = stack[matched];
			if (!measured) {
				wsEnd = pos;
				wsCol = vcol;
				while (wsEnd < le) {
					const ch = text.charCodeAt(wsEnd);
					if (ch === CH.SPACE) wsCol++;
					else if (ch === CH.TAB) wsCol += 4 - (wsCol & 3);
					else break;
					wsEnd++;
				}
				measured = true;
			}
			if (c.kind === QUOTE) {
				measured = false;
				if (wsEnd < le && text.charCodeAt(wsEnd) === CH.GT && wsCol - logical < 4) {
					pos = wsEnd + 1;
					vcol = wsCol + 1;
					logical = vcol;
					if (pos < le) {
						const ch = text.charCodeAt(pos);
						if (ch === CH.SPACE) {
							pos++;
							vcol++;
							logical++;
						} else if (ch === CH.TAB) {
							pos++;
							logical = vcol + 1;
							vcol += 4 - (vcol & 3);
						}
					}
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
		const allMatched = matched === stack.length;
		if (allMatched && this.leaf >= L_FENCE && this.leaf <= L_COMMENT) {
			if (this.verbatimLine(ln, ls, le, pos, vcol, logical)) return;
		}

		// 2. New containers opening on this line. `q`/`v`: end of the whitespace at `pos` and its
		// column, kept valid for step 3 at every exit of this loop.
		let opened = false;
		let q = pos;
		let v = vcol;
		for (;;) {
			q = pos;
			v = vcol;
			while (q < le) {
				const ch = text.charCodeAt(q);
				if (ch === CH.SPACE) v++;
				else if (ch === CH.TAB) v += 4 - (v & 3);
				else break;
				q++;
			}
			if (q >= le || v - logical >= 4 || stack.length > MAX_NESTING) break;
			const ch = text.charCodeAt(q);
			if (ch === CH.GT) {
				this.closeLeaf();
				this.closeContainers(matched);
				this.openQuote(ln, ls, q, le);
				pos = q + 1;
				vcol = v + 1;
				logical = vcol;
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
				matched = stack.length;
				opened = true;
				continue;
			}
			let markerEnd = -1;
			let ordered = false;
			let startsAtOne = false;
			if (ch === CH.DASH || ch === CH.STAR || ch === CH.PLUS) {
				markerEnd = q + 1;
			} else if (isDigit(ch)) {
				let k = q + 1;
				while (k < le && k - q < 9 && isDigit(text.charCodeAt(k))) k++;
				const d = k < le ? text.charCodeAt(k) : 0;
				if (d === CH.DOT || d === CH.RPAREN) {
					markerEnd = k + 1;
					ordered = true;
					startsAtOne = k === q + 1 && ch === 49;
				}
			}
			if (markerEnd < 0) break;
			if (markerEnd < le && !isSpaceOrTab(text.charCodeAt(markerEnd))) break;
			if (!ordered && this.breakFrom(q, le)) break;
			const marker = ordered ? text.charCodeAt(markerEnd - 1) : ch;
			let k = markerEnd;
			const mv = v + (markerEnd - q);
			let cv = mv;
			while (k < le) {
				const sp = text.charCodeAt(k);
				if (sp === CH.SPACE) cv++;
				else if (sp === CH.TAB) cv += 4 - (cv & 3);
				else break;
				k++;
			}
			const empty = k >= le;
			if (this.leaf === L_PARA) {
				// A setext underline (`-`) beats an empty list item under a paragraph.
				if (allMatched && !opened && ch === CH.DASH && setextLevel(text, q, le) === 2) break;
				// Only a sibling of an open item may follow a paragraph freely; a new list must
				// not be empty and, if ordered, must start at 1 (CommonMark's interrupt rule).
				const next = allMatched ? null : stack[matched];
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
			// An item starts where its parent's content starts (the indentation before its marker
			// belongs to it), except under a `1.` item, where Obsidian starts it at the marker
			// itself — observed in the corpus (`1)` parents absorb the indentation like bullets).
			const parent = stack[stack.length - 1];
			const atMarker = parent.kind === ITEM && parent.list !== null && parent.list.marker === CH.DOT;
			const item = this.openItem(ln, ls, le, atMarker ? q : pos, marker, contentCol);
			pos = contentPos;
			vcol = contentCol;
			logical = contentCol;
			matched = stack.length;
			opened = true;
			// Task checkbox `[c]` then a space: its character is the item's `task`; the rest of
			// the line is the item's content (which may itself open a nested list: `- [ ] 1. x`).
			if (pos + 2 < le + 0 && text.charCodeAt(pos) === CH.LBRACKET && text.charCodeAt(pos + 2) === CH.RBRACKET) {
				if (pos + 3 === le || isSpaceOrTab(text.charCodeAt(pos + 3))) {
					item.task = text.charAt(pos + 1);
					pos = pos + 3 < le ? pos + 4 : le;
					vcol += pos - contentPos;
					logical = vcol;
				}
			}
		}

		// 3. The rest of the line: lazy continuation, blank line, or leaf content.
		const indent = v - logical;
		const blank = q >= le;
		if (!opened && !allMatched) {
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
			const top = stack[stack.length - 1];
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
				if (this.paraLines === 1 && (first === CH.PIPE || first === CH.DASH || first === CH.COLON) && this.tableStarts(q, le)) {
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
			const interrupted = indent < 4 && (this.interruptsParagraph(q, le, indent) || (leaf === L_FOOTNOTE && isFootnoteDef(text, q, le)));
			if (!interrupted) {
				this.inline.add(q, le, ln, ls);
				this.markContent(ln, ls, le);
				return;
			}
			this.closeLeaf();
		}
		this.startLeaf(ln, ls, le, q, indent);
	}

	/**
	 * `isThematicBreak(text, q, le)` for a list marker at `q`, in constant time after one backward
	 * scan per line and marker character: `- - - … word` (one nested item per marker) asked it at
	 * every marker, each call scanning to the line end — quadratic in the line's length. From the
	 * line end backwards, `tbFirst` is where the run of marker characters and blanks starts and
	 * `tbThird` the third marker character from the end (-1 if fewer): a break starts at `q` iff
	 * `q` is inside the run and at least three marker characters follow it.
	 */
	private breakFrom(q: number, le: number): boolean {
		const c = this.text.charCodeAt(q);
		if (this.tbLineEnd !== le || this.tbChar !== c) {
			let k = le;
			let count = 0;
			let third = -1;
			while (k > q) {
				const d = this.text.charCodeAt(k - 1);
				if (d === c) {
					if (++count === 3) third = k - 1;
				} else if (!isSpaceOrTab(d)) break;
				k--;
			}
			this.tbLineEnd = le;
			this.tbChar = c;
			this.tbFirst = k;
			this.tbThird = third;
		}
		return q >= this.tbFirst && q <= this.tbThird;
	}

	/**
	 * A line inside a verbatim leaf (code, math, comment, HTML) whose containers all matched.
	 * Returns false when the leaf ended without consuming the line.
	 */
	private verbatimLine(ln: number, ls: number, le: number, pos: number, vcol: number, logical: number): boolean {
		const text = this.text;
		let q = pos;
		let v = vcol;
		while (q < le) {
			const ch = text.charCodeAt(q);
			if (ch === CH.SPACE) v++;
			else if (ch === CH.TAB) v += 4 - (v & 3);
			else break;
			q++;
		}
		const blank = q >= le;
		switch (this.leaf) {
			case L_FENCE:
				if (!blank) this.markContent(ln, ls, le);
				if (!blank && v - logical < 4 && isFenceClose(text, q, le, this.fenceChar, this.fenceLen)) this.closeLeaf();
				return true;
			case L_ICODE:
				if (blank) return true;
				if (v - logical < 4) {
					this.closeLeaf();
					return false;
				}
				this.markContent(ln, ls, le);
				return true;
			case L_HTML:
				if (this.htmlKind >= 6) {
					if (blank) {
						this.closeLeaf();
						return false;
					}
					this.markContent(ln, ls, le);
					return true;
				}
				if (!blank) this.markContent(ln, ls, le);
				if (this.htmlEnds(pos, le)) this.closeLeaf();
				return true;
			case L_MATH:
				if (!blank) this.markContent(ln, ls, le);
				if (this.lineHas(SLOT_MATH, pos, le)) this.closeLeaf();
				return true;
			default:
				// L_COMMENT: its text is indexed, so it is collected like a paragraph's.
				this.inline.add(pos, le, ln, ls);
				if (!blank) this.markContent(ln, ls, le);
				if (this.lineHas(SLOT_COMMENT, pos, le)) this.closeLeaf();
				return true;
		}
	}

	/** True when the line part [p, end) holds the end marker in `slot`. */
	private lineHas(slot: number, p: number, end: number): boolean {
		return this.search.next(slot, p) + END_MARKERS[slot].length <= end;
	}

	/** True when [p, end) holds the end marker of the open HTML block (kinds 1–5). */
	private htmlEnds(p: number, end: number): boolean {
		return this.htmlKind === 1 ? rawHtmlBlockEnds(this.text, p, end) : this.lineHas(this.htmlKind - 2, p, end);
	}

	/** True when [q, le) starts a block that ends an open paragraph. */
	private interruptsParagraph(q: number, le: number, indent: number): boolean {
		if (indent >= 4) return false;
		const text = this.text;
		const c = text.charCodeAt(q);
		switch (c) {
			case CH.HASH:
				return atxLevel(text, q, le) > 0;
			case CH.BACKTICK:
			case CH.TILDE:
				return fenceLength(text, q, le) > 0;
			case CH.GT:
				return true;
			case CH.STAR:
			case CH.DASH:
			case CH.PLUS:
			case CH.UNDERSCORE:
				if (isThematicBreak(text, q, le)) return true;
				if (c === CH.UNDERSCORE) return false;
				return q + 1 < le && isSpaceOrTab(text.charCodeAt(q + 1)) && trimmedEnd(text, q + 1, le) > q + 1;
			case CH.DOLLAR:
				return opensFencedPair(text, q, le, CH.DOLLAR);
			case CH.PERCENT:
				return opensFencedPair(text, q, le, CH.PERCENT);
			case CH.LT:
				return htmlBlockKind(text, q, le, false) > 0;
			case 49: {
				const d = q + 1 < le ? text.charCodeAt(q + 1) : 0;
				return (d === CH.DOT || d === CH.RPAREN) && q + 2 < le && isSpaceOrTab(text.charCodeAt(q + 2)) && trimmedEnd(text, q + 2, le) > q + 2;
			}
			default:
				return false;
		}
	}

	/** True when the one-line paragraph open is a table header and [q, le) its delimiter row. */
	private tableStarts(q: number, le: number): boolean {
		const cells = delimiterCells(this.text, q, le);
		if (cells === 0) return false;
		const s = this.inline.startOf(0);
		const e = this.inline.endOf(0);
		return hasPipe(this.text, s, e) && countCells(this.text, s, e) === cells;
	}

	/** Open the leaf block that [q, le) starts (no paragraph is open). */
	private startLeaf(ln: number, ls: number, le: number, q: number, indent: number): void {
		const text = this.text;
		const top = this.stack[this.stack.length - 1];
		const root = top.kind === ROOT;
		// Any other block between two list items ends their list.
		top.lastList = null;
		this.leafContainer = top;
		if (indent >= 4) {
			this.leaf = L_ICODE;
			if (root) this.openSection('code', ln, ls, q);
			this.markContent(ln, ls, le);
			return;
		}
		const c = text.charCodeAt(q);
		if (c === CH.HASH) {
			const level = atxLevel(text, q, le);
			if (level > 0) {
				const [cs, ce] = atxContent(text, q, le, level);
				if (root) {
					// A heading is one line: its section is closed at once and shares its Pos.
					const position = span(loc(ln, ls, q), loc(ln, ls, le));
					this.finishSection();
					this.sink.sections.push({ type: 'heading', position });
					this.sink.headings.push({ heading: text.slice(cs, ce), level, position });
				}
				this.markContent(ln, ls, le);
				if (ce > cs) {
					this.inline.add(cs, ce, ln, ls);
					this.inline.scan(false);
				}
				return;
			}
		} else if (c === CH.BACKTICK || c === CH.TILDE) {
			const len = fenceLength(text, q, le);
			if (len > 0) {
				this.leaf = L_FENCE;
				this.fenceChar = c;
				this.fenceLen = len;
				if (root) this.openSection('code', ln, ls, q);
				this.markContent(ln, ls, le);
				return;
			}
		} else if (c === CH.DOLLAR || c === CH.PERCENT) {
			if (opensFencedPair(text, q, le, c)) {
				const mark = c === CH.DOLLAR ? '$$' : '%%';
				const closes = this.lineHas(c === CH.DOLLAR ? SLOT_MATH : SLOT_COMMENT, q + 2, le);
				// `%% a %% more text` is a paragraph holding an inline comment, not a block.
				if (!closes || text.startsWith(mark, trimmedEnd(text, q, le) - 2)) {
					this.leaf = c === CH.DOLLAR ? L_MATH : L_COMMENT;
					if (root) this.openSection(c === CH.DOLLAR ? 'math' : 'comment', ln, ls, q);
					if (c === CH.PERCENT) this.inline.add(q, le, ln, ls);
					this.markContent(ln, ls, le);
					if (closes) this.closeLeaf();
					return;
				}
			}
		} else if (c === CH.STAR || c === CH.DASH || c === CH.UNDERSCORE) {
			if (isThematicBreak(text, q, le)) {
				if (root) this.openSection('thematicBreak', ln, ls, q);
				this.markContent(ln, ls, le);
				return;
			}
		} else if (c === CH.LT) {
			const kind = htmlBlockKind(text, q, le, true);
			if (kind > 0) {
				this.leaf = L_HTML;
				this.htmlKind = kind;
				if (root) this.openSection('html', ln, ls, q);
				this.markContent(ln, ls, le);
				if (kind <= 5 && this.htmlEnds(q + 2, le)) this.closeLeaf();
				return;
			}
		} else if (c === CH.LBRACKET && isFootnoteDef(text, q, le)) {
			this.leaf = L_FOOTNOTE;
			if (root) this.openSection('footnoteDefinition', ln, ls, q);
			this.inline.add(q, le, ln, ls);
			this.markContent(ln, ls, le);
			return;
		}
		this.leaf = L_PARA;
		this.paraLines = 1;
		if (root) this.openSection('paragraph', ln, ls, q);
		this.inline.add(q, le, ln, ls);
		this.markContent(ln, ls, le);
	}

	/** Close the open leaf block, indexing its text. */
	private closeLeaf(): void {
		switch (this.leaf) {
			case L_NONE:
				return;
			case L_PARA:
				this.closeParagraph();
				break;
			case L_TABLE:
				this.inline.scan(true);
				break;
			case L_FOOTNOTE:
			case L_COMMENT:
				this.inline.scan(false);
				break;
			default:
				this.inline.clear();
		}
		this.leaf = L_NONE;
	}

	/** Close a paragraph: index its text and attach a trailing `^block-id`. */
	private closeParagraph(): void {
		const inline = this.inline;
		const n = inline.count;
		const last = n - 1;
		const s = inline.startOf(last);
		const e = inline.endOf(last);
		const caret = blockIdCaret(this.text, s, e);
		if (caret < 0) {
			inline.scan(false);
			return;
		}
		const id = this.text.slice(caret + 1, trimmedEnd(this.text, s, e));
		const alone = caret === s && n === 1;
		const start = loc(inline.lineOf(0), inline.lineStartOf(0), inline.startOf(0));
		const end = loc(inline.lineOf(last), inline.lineStartOf(last), e);
		inline.scan(false);
		const owner = this.leafContainer;
		if (owner.kind === ITEM && owner.item !== null) {
			// The block shares the item's Pos, whose end is fixed when the item closes.
			owner.item.id = id;
			this.sink.addBlock(id, { id, position: owner.item.position });
			return;
		}
		const sections = this.sink.sections;
		if (owner.kind === ROOT && this.section !== null) {
			if (alone && sections.length >= 2) {
				// `^id` alone on its line names the block before it (a list, table, quote…).
				sections.pop();
				this.section = null;
				const prev = sections[sections.length - 1];
				prev.id = id;
				this.sink.addBlock(id, { id, position: prev.position });
				return;
			}
			this.section.id = id;
		}
		this.sink.addBlock(id, { id, position: span(start, end) });
	}

	/** Turn the open paragraph into a setext heading underlined by line `ln`. */
	private setextHeading(level: number, ln: number, ls: number, le: number): void {
		const inline = this.inline;
		const text = this.text;
		if (this.leafContainer.kind === ROOT && this.section !== null) {
			let heading = '';
			for (let i = 0; i < inline.count; i++) {
				const part = text.slice(inline.startOf(i), inline.endOf(i)).trim();
				heading = i === 0 ? part : heading + '\n' + part;
			}
			this.section.type = 'heading';
			const start = loc(inline.lineOf(0), inline.lineStartOf(0), inline.startOf(0));
			this.sink.headings.push({ heading, level, position: span(start, loc(ln, ls, le)) });
		}
		inline.scan(false);
		this.leaf = L_NONE;
		this.markContent(ln, ls, le);
	}

	/** Open a block quote (a callout when its first line starts with `[!type]`) at `q`. */
	private openQuote(ln: number, ls: number, q: number, le: number): void {
		const parent = this.stack[this.stack.length - 1];
		parent.lastList = null;
		if (parent.kind === ROOT) {
			let k = q + 1;
			while (k < le && isSpaceOrTab(this.text.charCodeAt(k))) k++;
			const callout = this.text.startsWith('[!', k);
			this.openSection(callout ? 'callout' : 'blockquote', ln, ls, ls);
		}
		this.stack.push(new Container(QUOTE));
	}

	/** Open a list item whose marker line starts (after parent prefixes) at `start`. */
	private openItem(ln: number, ls: number, le: number, start: number, marker: number, contentCol: number): ListItemCache {
		const parent = this.stack[this.stack.length - 1];
		let list = parent.lastList;
		if (list !== null && list.marker === marker) {
			// A sibling after blank lines: the previous item's position runs to that blank line.
			const prev = list.lastItem;
			if (prev !== null && prev.blankAfterOwn && prev.item !== null) {
				prev.item.position.end = loc(prev.blankLine, prev.blankLineStart, prev.blankLineStart);
			}
		} else {
			list = new ListInfo(marker, ln);
			parent.lastList = list;
			if (parent.kind === ROOT) this.openSection('list', ln, ls, start);
		}
		// Items of a top-level list point at the list's first line, negated (Obsidian writes -1
		// for a list on line 0, as -0 would not be negative).
		const parentLine = parent.kind === ITEM ? parent.startLine : list.firstLine === 0 ? -1 : -list.firstLine;
		const startLoc = loc(ln, ls, start);
		const item: ListItemCache = { parent: parentLine, position: span(startLoc, startLoc) };
		this.sink.listItems.push(item);
		if (parent.kind === ITEM) parent.blankAfterOwn = false;
		const c = new Container(ITEM);
		c.contentCol = contentCol;
		c.startLine = ln;
		c.list = list;
		c.item = item;
		c.ownLine = ln;
		c.ownLineStart = ls;
		c.ownEnd = le;
		this.stack.push(c);
		return item;
	}

	/** Close containers above depth `depth`, fixing list item ends. */
	private closeContainers(depth: number): void {
		const stack = this.stack;
		while (stack.length > depth) {
			const c = stack.pop();
			if (c !== undefined && c.kind === ITEM && c.item !== null && c.list !== null) {
				c.item.position.end = loc(c.ownLine, c.ownLineStart, c.ownEnd);
				c.list.lastItem = c;
			}
		}
	}

	/** Line `ln` [ls, le) holds content: extend the root section and the innermost item. */
	private markContent(ln: number, ls: number, le: number): void {
		if (this.section !== null) {
			this.secLine = ln;
			this.secLineStart = ls;
			this.secEnd = le;
		}
		const stack = this.stack;
		for (let i = stack.length - 1; i > 0; i--) {
			const c = stack[i];
			if (c.kind === ITEM) {
				c.ownLine = ln;
				c.ownLineStart = ls;
				c.ownEnd = le;
				c.blankAfterOwn = false;
				return;
			}
		}
	}

	/** Start a new root-level section at `start` on line `ln`. */
	private openSection(type: string, ln: number, ls: number, start: number): void {
		this.finishSection();
		const startLoc: Loc = loc(ln, ls, start);
		const section: SectionCache = { type, position: span(startLoc, startLoc) };
		this.sink.sections.push(section);
		this.section = section;
		this.secLine = ln;
		this.secLineStart = ls;
		this.secEnd = start;
	}

	/** Fix the end of the open section at its last content line. */
	private finishSection(): void {
		if (this.section === null) return;
		this.section.position.end = loc(this.secLine, this.secLineStart, this.secEnd);
		this.section = null;
	}
}
