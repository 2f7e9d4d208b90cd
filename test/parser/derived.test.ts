/**
 * Derived, not recorded: behaviour the Obsidian 1.9 corpus does not show, following the rules
 * in shared/OBSIDIAN-METADATA.md (each case says which rule it checks, and where we chose).
 */
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CachedMetadata } from '../../src/core/metadata';
import { allLocs } from '../helpers/locs';
import {
	getAllTags,
	parseFrontMatterAliases,
	parseFrontMatterTags,
	parseLinktext,
} from '../../src/core/obsidian-rules';
import { parseNote } from '../../src/node/parser/index';
import { expectLinear } from '../helpers/work';
import { CORPUS_DIR, HAS_SHARED, itShared } from '../helpers/shared';

const CORPUS = pathToFileURL(`${CORPUS_DIR}/`);

/** Tag names of a note body. */
function tags(md: string): string[] {
	return (parseNote(md).metadata.tags ?? []).map((t) => t.tag);
}
/** Link targets of a note body. */
function links(md: string): string[] {
	return (parseNote(md).metadata.links ?? []).map((l) => l.link);
}
/** Section types of a note. */
function sections(md: string): string[] {
	return (parseNote(md).metadata.sections ?? []).map((s) => s.type);
}

describe('derived, not recorded: CRLF line endings', () => {
	// Decision: offsets count every `\r` (they index the text as given); a line's end column
	// excludes its `\r`. So a CRLF note has the same lines and columns as its LF twin, and
	// each offset is the LF offset plus the line number.
	const files = HAS_SHARED ? readdirSync(CORPUS).filter((f) => f.endsWith('.json')) : [];
	itShared(`every corpus note (${files.length}) converted to CRLF: same metadata, offsets + line`, () => {
		for (const file of files) {
			const lf = (JSON.parse(readFileSync(new URL(file, CORPUS), 'utf8')) as { fileContents: string })
				.fileContents;
			const crlf = lf.replace(/\n/g, '\r\n');
			const a = parseNote(lf).metadata;
			const b = parseNote(crlf).metadata;
			const shifted = JSON.parse(JSON.stringify(a)) as CachedMetadata;
			for (const l of allLocs(shifted)) l.offset += l.line;
			expect(b, file).toEqual(shifted);
		}
	});

	it('frontmatter, headings and tags in a CRLF note', () => {
		const { metadata, frontmatterError } = parseNote('---\r\ntags: [a]\r\ntitle: x\r\n---\r\n# H #t\r\n');
		expect(frontmatterError).toBeNull();
		expect(metadata.frontmatter).toEqual({ tags: ['a'], title: 'x' });
		expect(metadata.frontmatterPosition?.end).toEqual({ line: 3, col: 3, offset: 29 });
		expect(metadata.headings?.[0]).toEqual({
			heading: 'H #t',
			level: 1,
			position: { start: { line: 4, col: 0, offset: 31 }, end: { line: 4, col: 6, offset: 37 } },
		});
		expect(getAllTags(metadata)).toEqual(['#a', '#t']);
	});
});

describe('derived, not recorded: UTF-8 BOM', () => {
	// Decision: Obsidian strips a BOM when it reads a file, so parseNote drops a leading U+FEFF
	// and reports positions in the text after it — exactly what parsing the BOM-less text gives.
	it('frontmatter still parses and positions match the BOM-less text', () => {
		const body = '---\ntags: journal\n---\n# Day #x [[Link]]\n';
		const withBom = parseNote('\uFEFF' + body);
		expect(withBom.metadata.frontmatter).toEqual({ tags: 'journal' });
		expect(withBom).toEqual(parseNote(body));
	});
});

describe('derived, not recorded: tag characters', () => {
	it('unicode letters, accents and emoji are tag characters', () => {
		expect(tags('#日本語 #café #cafe\u0301 #🚀 #über/straße #a_b-c')).toEqual([
			'#日本語',
			'#café',
			'#cafe\u0301',
			'#🚀',
			'#über/straße',
			'#a_b-c',
		]);
	});
	it('general punctuation (zero-width joiner, em dash, …) and ASCII punctuation end a tag', () => {
		expect(tags("#a\u200Db #c—d #e…f #g,h #i.j #k)l #m'n")).toEqual(['#a', '#c', '#e', '#g', '#i', '#k', '#m']);
	});
	it('all-digit names are not tags; one letter makes them tags; #a.b is #a', () => {
		expect(tags('#1984 #y1984 #ff0000 #2024/05 #a.b')).toEqual(['#y1984', '#ff0000', '#2024/05', '#a']);
	});
	it('a # inside a word, after punctuation, or escaped is not a tag', () => {
		expect(tags('a#b (#c) \\#d #e\\#f')).toEqual(['#e']);
	});
	it('a # right after an inline token starts a tag', () => {
		expect(tags('**#bold** *#em* ==#mark== ~~#del~~ `c`#after [[x]]#wiki \\[#esc a*#no')).toEqual([
			'#bold',
			'#em',
			'#mark',
			'#del',
			'#after',
			'#wiki',
			'#esc',
		]);
	});
	it('tags in headings, quotes, callouts, lists and table cells count', () => {
		expect(
			tags('# H #h\n\n> q #q\n\n> [!note] #c\n> body #cb\n\n- item #i\n\n| a | b |\n| - | - |\n|#t1| x #t2 |\n'),
		).toEqual(['#h', '#q', '#c', '#cb', '#i', '#t1', '#t2']);
	});
});

describe('derived, not recorded: what hides links and tags', () => {
	it('fenced and indented code, and code spans of any length, hide them', () => {
		const md =
			'```\n[[no1]] #no1\n```\n\n~~~js\n[[no2]]\n~~~\n\n    [[no3]] #no3\n\nText `[[no4]] #no4` ``a ` [[no5]]`` [[yes]] #yes\n';
		expect(links(md)).toEqual(['yes']);
		expect(tags(md)).toEqual(['#yes']);
		expect(sections(md)).toEqual(['code', 'code', 'code', 'paragraph']);
	});
	it('an unclosed code span is plain text', () => {
		expect(links('a `b [[c]]')).toEqual(['c']);
	});
	it('$$ math blocks and $inline$ math hide them; a lone $ does not', () => {
		const md = '$$\n[[no]] #no\n$$\n\nInline $[[x]] #y$ and $$ [[z]] $$ but $5 and $ 6 #yes [[yes]]\n';
		expect(links(md)).toEqual(['yes']);
		expect(tags(md)).toEqual(['#yes']);
		expect(sections(md)).toEqual(['math', 'paragraph']);
	});
	it('HTML comments and HTML blocks hide them; inline tags do not', () => {
		const md =
			'<!--\n[[no1]] #no1\n-->\n\n<div>\n[[no2]]\n</div>\n\ntext <!-- [[no3]] #no3 --> [[yes]] <span>#yes</span>\n';
		expect(links(md)).toEqual(['yes']);
		expect(tags(md)).toEqual(['#yes']);
		expect(sections(md)).toEqual(['html', 'html', 'paragraph']);
	});
	it('%% comments do NOT hide them (Obsidian indexes inside comments)', () => {
		const md = '%%\n[[c1]] #c1\n%%\n\ntext %% [[c2]] #c2 %% end\n\n%% one line [[c3]] %%\n';
		expect(links(md)).toEqual(['c1', 'c2', 'c3']);
		expect(tags(md)).toEqual(['#c1', '#c2']);
		expect(sections(md)).toEqual(['comment', 'paragraph', 'comment']);
	});
	it('escaped brackets are not links; markdown links with a scheme are not indexed', () => {
		expect(
			links('\\[[a]] [x](https://e.org) [y](obsidian://open) [z](mailto:a@b) [w](rel/p%20q.md) ![i](img.png)'),
		).toEqual(['rel/p q.md']);
	});
});

describe('derived, not recorded: footnotes', () => {
	it('a footnote definition is its own section and its text is indexed', () => {
		const md = 'Text[^1] and [^note].\n\n[^1]: See [[Note]] #fn\n[^note]: Other\n';
		const { metadata } = parseNote(md);
		expect(metadata.sections?.map((s) => s.type)).toEqual([
			'paragraph',
			'footnoteDefinition',
			'footnoteDefinition',
		]);
		expect(metadata.links?.map((l) => l.link)).toEqual(['Note']);
		expect(metadata.tags?.map((t) => t.tag)).toEqual(['#fn']);
	});
});

describe('derived, not recorded: malformed frontmatter', () => {
	it('unparsable YAML: no frontmatter keys, the yaml section stays, frontmatterError says where', () => {
		const { metadata, frontmatterError } = parseNote('---\ntitle: a\n  bad: [\n---\n#tag\n');
		expect(metadata.frontmatter).toBeUndefined();
		expect(metadata.frontmatterPosition).toBeUndefined();
		expect(metadata.frontmatterLinks).toBeUndefined();
		expect(metadata.sections?.[0]).toEqual({
			type: 'yaml',
			position: { start: { line: 0, col: 0, offset: 0 }, end: { line: 3, col: 3, offset: 25 } },
		});
		expect(frontmatterError).toMatch(/^line \d+: /);
		expect(metadata.tags?.map((t) => t.tag)).toEqual(['#tag']);
	});
	it('YAML that is a list or a scalar is not frontmatter', () => {
		expect(parseNote('---\n- a\n- b\n---\n').frontmatterError).toMatch(/not a key\/value mapping/);
		expect(parseNote('---\njust text\n---\n').metadata.frontmatter).toBeUndefined();
	});
	it('an empty block is no frontmatter but no error either', () => {
		const { metadata, frontmatterError } = parseNote('---\n\n---\nbody\n');
		expect(frontmatterError).toBeNull();
		expect(metadata.frontmatter).toBeUndefined();
		expect(sections('---\n\n---\nbody\n')).toEqual(['yaml', 'paragraph']);
	});
	it('dates stay strings, duplicate keys are an error', () => {
		expect(parseNote('---\nd: 2024-07-21\nt: 2024-07-21T12:37:00Z\n---\n').metadata.frontmatter).toEqual({
			d: '2024-07-21',
			t: '2024-07-21T12:37:00Z',
		});
		expect(parseNote('---\na: 1\na: 2\n---\n').frontmatterError).toMatch(/duplicate/);
	});
	it('an unclosed block is not frontmatter', () => {
		expect(sections('---\na: 1\n')).toEqual(['thematicBreak', 'paragraph']);
	});
});

describe('derived, not recorded: size and pathological input', () => {
	it('a huge single-line note (about 2 MB) parses, in work linear in its length', () => {
		const line = (n: number): string => 'word #tag [[link]] [md](x.md) `code` $m$ '.repeat(n);
		const { metadata } = parseNote(line(50_000));
		expectLinear('one long line', line, parseNote, 10_000);
		expect(metadata.tags).toHaveLength(50_000);
		expect(metadata.links).toHaveLength(100_000);
		expect(metadata.sections).toHaveLength(1);
	});
	it('unclosed constructs repeated on one line stay linear', () => {
		for (const unit of ['[a ', '[a](x', '[a](b(', '$a ', '`` ` ', '[[a ', '<a ', '<!-- ', '![a ', '[a](b "'])
			expectLinear(unit, (n) => unit.repeat(n), parseNote, 10_000);
	});
});

describe('derived, not recorded: block ids and lists', () => {
	it('an id ending a paragraph or list item; alone after a block it names that block', () => {
		const md = 'Para ^p1\n\n- item ^i1\n- other\n\n| a |\n| - |\n| b |\n\n^t1\n';
		const { metadata } = parseNote(md);
		expect(Object.keys(metadata.blocks ?? {})).toEqual(['p1', 'i1', 't1']);
		expect(metadata.sections?.map((s) => [s.type, s.id])).toEqual([
			['paragraph', 'p1'],
			['list', undefined],
			['table', 't1'],
		]);
		expect(metadata.listItems?.[0]!.id).toBe('i1');
		expect(metadata.blocks?.i1!.position).toEqual(metadata.listItems?.[0]!.position);
	});
	it('a change of bullet starts a new list; blank lines between items do not', () => {
		expect(sections('- a\n\n- b\n* c\n1. d\n1) e\n')).toEqual(['list', 'list', 'list', 'list']);
		// CommonMark: a new ordered list must start at 1 to interrupt a paragraph, so "2) e"
		// is a lazy continuation of "d".
		expect(sections('1. d\n2) e\n')).toEqual(['list']);
	});
	it("item lines at the edges of the block pass's straight path for `- text` and `1. text` open what CommonMark says", () => {
		/** Each list item as [line, parent, task]. */
		const items = (md: string) =>
			(parseNote(md).metadata.listItems ?? []).map((i) => [i.position.start.line, i.parent, i.task]);
		// The marker's character again can make the line a thematic break, not an item.
		expect([sections('* **\n'), items('* **\n')]).toEqual([['thematicBreak'], []]);
		expect([sections('- - -\n'), items('- - -\n')]).toEqual([['thematicBreak'], []]);
		expect(items('- -x\n')).toEqual([[0, -1, undefined]]);
		// A bullet and a blank after the marker opens a nested item; without the blank it is text.
		expect(items('- + x\n')).toEqual([
			[0, -1, undefined],
			[0, 0, undefined],
		]);
		expect(items('- +x\n- **bold**\n')).toEqual([
			[0, -1, undefined],
			[1, -1, undefined],
		]);
		expect(items('1. 2. x\n')).toEqual([
			[0, -1, undefined],
			[0, 0, undefined],
		]);
		// `[c]` and a blank is a task box; a wikilink is not.
		expect(items('- [x] done\n- [[Note]]\n')).toEqual([
			[0, -1, 'x'],
			[1, -1, undefined],
		]);
		expect(links('- [[Note]]\n')).toEqual(['Note']);
		// Under a paragraph only a list starting at 1 interrupts it; longer numbers take the general path.
		expect(sections('para\n2. x\n')).toEqual(['paragraph']);
		expect(sections('para\n1) x\n')).toEqual(['paragraph', 'list']);
		// …or the next item of the list the paragraph is in, with the same delimiter.
		expect(items('1. a\n2. b\n3) c\n')).toEqual([
			[0, -1, undefined],
			[1, -1, undefined],
		]);
		expect(items('- 1. a\n  2. b\n')).toEqual([
			[0, -1, undefined],
			[0, 0, undefined],
			[1, 0, undefined],
		]);
		expect(items('10. x\n11. y\n')).toEqual([
			[0, -1, undefined],
			[1, -1, undefined],
		]);
		expect(items('1.x\n')).toEqual([]);
		// A line not indented to an item's content after a blank line ends the list.
		expect(sections('- a\n\nnext\n')).toEqual(['list', 'paragraph']);
	});
});

describe('derived, not recorded: core helpers', () => {
	it('parseLinktext splits at the first #', () => {
		expect(parseLinktext('a/b#h1#h2')).toEqual({ path: 'a/b', subpath: '#h1#h2' });
		expect(parseLinktext('#^blk')).toEqual({ path: '', subpath: '#^blk' });
		expect(parseLinktext('note')).toEqual({ path: 'note', subpath: '' });
	});
	it('parseFrontMatterAliases keeps strings as written, first matching key only', () => {
		expect(parseFrontMatterAliases({ Aliases: ['One', ' Two words '], aliases: 'x' })).toEqual([
			'One',
			'Two words',
		]);
		expect(parseFrontMatterAliases({ aliases: 'a, b' })).toEqual(['a, b']);
		expect(parseFrontMatterAliases({ alias: 'x' })).toBeNull();
		expect(parseFrontMatterAliases({ aliases: null })).toBeNull();
	});
	it('parseFrontMatterTags: no comma split, spaces dropped, # added, tag: ignored', () => {
		expect(parseFrontMatterTags({ tags: ['a', '#b', 'c d', '', 7] })).toEqual(['#a', '#b']);
		expect(parseFrontMatterTags({ tag: 'x' })).toBeNull();
		expect(parseFrontMatterTags({ TAGS: 'x' })).toEqual(['#x']);
	});
});

describe('derived, not recorded: invariants on arbitrary input', () => {
	const PIECES = [
		'\n',
		'\r\n',
		'\n\n',
		' ',
		'  ',
		'\t',
		'- ',
		'* ',
		'1. ',
		'> ',
		'[!note] ',
		'# ',
		'```',
		'~~~',
		'$$',
		'%%',
		'<!--',
		'-->',
		'<div>',
		'|',
		'---',
		'[[',
		']]',
		'|a',
		'#',
		'#t',
		'#1',
		'![[',
		'[',
		'](',
		')',
		'`',
		'$',
		'\\',
		'^id',
		'[ ] ',
		'word',
		'日本',
		'🚀',
		'\u200D',
		'\uFEFF',
	];
	const note = fc.array(fc.constantFrom(...PIECES), { maxLength: 60 }).map((parts) => parts.join(''));

	it('never throws; every position is consistent and slices to what it names', () => {
		fc.assert(
			fc.property(note, (md) => {
				const { metadata } = parseNote(md);
				const text = md.charCodeAt(0) === 0xfeff ? md.slice(1) : md;
				const lineStarts = [0];
				for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
				for (const l of allLocs(metadata)) {
					expect(l.offset).toBeGreaterThanOrEqual(0);
					expect(l.offset).toBeLessThanOrEqual(text.length);
					expect(lineStarts[l.line]! + l.col).toBe(l.offset);
				}
				for (const link of [...(metadata.links ?? []), ...(metadata.embeds ?? [])]) {
					expect(text.slice(link.position.start.offset, link.position.end.offset)).toBe(link.original);
				}
				for (const tag of metadata.tags ?? [])
					expect(text.slice(tag.position.start.offset, tag.position.end.offset)).toBe(tag.tag);
			}),
			{ numRuns: 3000 },
		);
	});
});
