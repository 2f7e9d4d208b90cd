/**
 * The block pass's state and its leaf blocks: the open containers, the open leaf (paragraph,
 * fence, indented code, HTML, math, comment, table, footnote) and the root-level section, with
 * the steps that open, continue and close them. `BlockParser` (blocks.ts) walks the lines and
 * decides, phase by phase, which of these steps a line takes.
 */
import type { ListItemCache, Loc, SectionCache } from '../../core/metadata';
import { blockIdCaret } from './block-ids';
import { CH, isSpaceOrTab, skipBlanks, trimmedEnd } from './chars';
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
} from './leaf-starts';
import { L_COMMENT, L_FENCE, L_FOOTNOTE, L_HTML, L_ICODE, L_MATH, L_NONE, L_PARA, L_TABLE } from './leaf-kinds';
import { loc, span } from './positions';
import type { MetadataSink } from './sink';
import { countCells, delimiterCells, hasPipe } from './tables';

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
/** The block pass's state and leaf steps; `BlockParser` adds the per-line phases. */
export abstract class LeafBlocks {
	// The note being parsed and where its metadata goes; set by `parse`. One parser is reused
	// for every note (no per-note setup allocations), so all state is reset there.
	protected text = '';
	protected sink: MetadataSink;
	protected readonly inline: InlineScanner;
	protected readonly stack: Container[] = [];
	protected readonly search = new ForwardSearch(END_MARKERS);

	// The open leaf block.
	protected leaf = L_NONE;
	protected leafContainer: Container;
	protected paraLines = 0;
	protected fenceChar = 0;
	protected fenceLen = 0;
	protected htmlKind = 0;

	// `breakFrom`'s memo for one line and marker character (see there).
	protected tbLineEnd = -1;
	protected tbChar = 0;
	protected tbFirst = 0;
	protected tbThird = -1;

	// The open root-level section and the end of its last non-blank line.
	protected section: SectionCache | null = null;
	protected secLine = 0;
	protected secLineStart = 0;
	protected secEnd = 0;

	constructor(sink: MetadataSink) {
		this.sink = sink;
		this.inline = new InlineScanner(sink);
		this.leafContainer = new Container(ROOT);
	}

	/**
	 * `isThematicBreak(text, q, le)` for a list marker at `q`, in constant time after one backward
	 * scan per line and marker character: `- - - … word` (one nested item per marker) asked it at
	 * every marker, each call scanning to the line end — quadratic in the line's length. From the
	 * line end backwards, `tbFirst` is where the run of marker characters and blanks starts and
	 * `tbThird` the third marker character from the end (-1 if fewer): a break starts at `q` iff
	 * `q` is inside the run and at least three marker characters follow it.
	 */
	protected breakFrom(q: number, le: number): boolean {
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
	 * A line inside a verbatim leaf (code, math, comment, HTML) whose containers all matched: its
	 * content starts at `pos`, its first non-blank at `q`, `indent` columns past the content column.
	 * Returns false when the leaf ended without consuming the line.
	 */
	protected verbatimLine(ln: number, ls: number, le: number, pos: number, q: number, indent: number): boolean {
		const text = this.text;
		const blank = q >= le;
		switch (this.leaf) {
			case L_FENCE:
				if (!blank) this.markContent(ln, ls, le);
				if (!blank && indent < 4 && isFenceClose(text, q, le, this.fenceChar, this.fenceLen)) this.closeLeaf();
				return true;
			case L_ICODE:
				if (blank) return true;
				if (indent < 4) {
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
	protected lineHas(slot: number, p: number, end: number): boolean {
		return this.search.next(slot, p) + END_MARKERS[slot]!.length <= end;
	}

	/** True when [p, end) holds the end marker of the open HTML block (kinds 1–5). */
	protected htmlEnds(p: number, end: number): boolean {
		return this.htmlKind === 1 ? rawHtmlBlockEnds(this.text, p, end) : this.lineHas(this.htmlKind - 2, p, end);
	}

	/** True when [q, le) starts a block that ends an open paragraph. */
	protected interruptsParagraph(q: number, le: number, indent: number): boolean {
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
				return (
					(d === CH.DOT || d === CH.RPAREN) &&
					q + 2 < le &&
					isSpaceOrTab(text.charCodeAt(q + 2)) &&
					trimmedEnd(text, q + 2, le) > q + 2
				);
			}
			default:
				return false;
		}
	}

	/** True when the one-line paragraph open is a table header and [q, le) its delimiter row. */
	protected tableStarts(q: number, le: number): boolean {
		const cells = delimiterCells(this.text, q, le);
		if (cells === 0) return false;
		const s = this.inline.startOf(0);
		const e = this.inline.endOf(0);
		return hasPipe(this.text, s, e) && countCells(this.text, s, e) === cells;
	}

	/** Open the leaf block that [q, le) starts (no paragraph is open). */
	protected startLeaf(ln: number, ls: number, le: number, q: number, indent: number): void {
		const text = this.text;
		const top = this.stack[this.stack.length - 1]!;
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
	protected closeLeaf(): void {
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
	protected closeParagraph(): void {
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
				const prev = sections[sections.length - 1]!;
				prev.id = id;
				this.sink.addBlock(id, { id, position: prev.position });
				return;
			}
			this.section.id = id;
		}
		this.sink.addBlock(id, { id, position: span(start, end) });
	}

	/** Turn the open paragraph into a setext heading underlined by line `ln`. */
	protected setextHeading(level: number, ln: number, ls: number, le: number): void {
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
	protected openQuote(ln: number, ls: number, q: number, le: number): void {
		const parent = this.stack[this.stack.length - 1]!;
		parent.lastList = null;
		if (parent.kind === ROOT) {
			const callout = this.text.startsWith('[!', skipBlanks(this.text, q + 1, le));
			this.openSection(callout ? 'callout' : 'blockquote', ln, ls, ls);
		}
		this.stack.push(new Container(QUOTE));
	}

	/**
	 * Open a list item whose marker is at `q`, after its parent's prefixes end at `pos`. The item
	 * starts where its parent's content starts (the indentation before its marker belongs to it),
	 * except under a `1.` item, where Obsidian starts it at the marker itself — observed in the
	 * corpus (`1)` parents absorb the indentation like bullets).
	 */
	protected openItem(
		ln: number,
		ls: number,
		le: number,
		pos: number,
		q: number,
		marker: number,
		contentCol: number,
	): ListItemCache {
		const parent = this.stack[this.stack.length - 1]!;
		const start = parent.kind === ITEM && parent.list !== null && parent.list.marker === CH.DOT ? q : pos;
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
	protected closeContainers(depth: number): void {
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
	protected markContent(ln: number, ls: number, le: number): void {
		if (this.section !== null) {
			this.secLine = ln;
			this.secLineStart = ls;
			this.secEnd = le;
		}
		const stack = this.stack;
		for (let i = stack.length - 1; i > 0; i--) {
			const c = stack[i]!;
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
	protected openSection(type: string, ln: number, ls: number, start: number): void {
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
	protected finishSection(): void {
		if (this.section === null) return;
		this.section.position.end = loc(this.secLine, this.secLineStart, this.secEnd);
		this.section = null;
	}
}
