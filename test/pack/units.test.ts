/** The small parts of context packs, one job each: estimator, facets, grading, sections, quotes, budget, note rules. */
import { describe, expect, it } from 'vitest';
import { fillBudget, placement } from '../../src/core/pack/budget';
import { splitFacets } from '../../src/core/pack/facets';
import { gradeFacet, type KeyWord } from '../../src/core/pack/grade';
import { exclusionOf } from '../../src/core/pack/notes';
import { noteDate } from '../../src/core/note-date';
import { isQuestion, readerText } from '../../src/core/pack/prose';
import { quoteVariants, sentencesOf } from '../../src/core/pack/quotes';
import {
	blockSection,
	headingSection,
	LineIndex,
	linkRefsIn,
	noteUnits,
	sectionsOf,
	unitsIn,
	withoutRefs,
} from '../../src/core/pack/sections';
import { TermCounter, allTermCounts } from '../../src/core/pack/terms';
import { addCounts, countTokens, estimateTokens, tokensOf } from '../../src/core/pack/tokens';
import { analyzeQueryText } from '../../src/core/search/tokenize';
import { parseNote } from '../../src/node/parser/index';

describe('token estimator', () => {
	it('counts characters / 4, rounded up, and each CJK character as one token', () => {
		expect(estimateTokens('')).toBe(0);
		expect(estimateTokens('abcd')).toBe(1);
		expect(estimateTokens('abcde')).toBe(2);
		expect(estimateTokens('如何创建链接？')).toBe(7);
		expect(estimateTokens('リンクの作り方')).toBe(7);
		expect(estimateTokens('한국어')).toBe(3);
		expect(estimateTokens('ＡＢ')).toBe(2); // full-width forms count as CJK
		expect(estimateTokens('use [[链接]] ok')).toBe(2 + Math.ceil(11 / 4));
		expect(estimateTokens('😀😀😀😀')).toBe(1); // code points, not UTF-16 units
		expect(estimateTokens('𠀋')).toBe(1); // an ideograph outside the BMP
	});

	it('adds up exactly over concatenation', () => {
		const parts = ['# Context pack\n\n', '### [S1] 标签.md § 嵌套标签\n', '> text. 更多。\n', 'x'];
		expect(tokensOf(addCounts(...parts.map(countTokens)))).toBe(estimateTokens(parts.join('')));
	});
});

describe('facets', () => {
	const texts = (q: string): string[] => splitFacets(q).map((f) => f.text);

	it('splits questions, clauses joined by "and", semicolons and commas, in English and CJK', () => {
		expect(texts('how do I link notes, and how do I add tags?')).toEqual([
			'how do I link notes',
			'how do I add tags',
		]);
		expect(texts('What is sync; what does it cost. And is it encrypted?')).toEqual([
			'What is sync',
			'what does it cost',
			'is it encrypted',
		]);
		expect(texts('如何在笔记之间创建链接，以及如何给笔记添加标签？')).toEqual([
			'如何在笔记之间创建链接',
			'如何给笔记添加标签',
		]);
		expect(texts('如何创建链接和添加标签')).toEqual(['如何创建链接', '添加标签']);
		expect(texts('リンクの作り方、およびタグの使い方')).toEqual(['リンクの作り方', 'タグの使い方']);
	});

	it('keeps short pairs together and drops pieces without key words', () => {
		expect(texts('drag and drop')).toEqual(['drag and drop']);
		expect(texts('tags and links')).toEqual(['tags and links']);
		expect(texts('链接和标签')).toEqual(['链接和标签']);
		expect(texts('sync my vault, why?')).toEqual(['sync my vault']);
		expect(texts('why?')).toEqual(['why?']); // nothing else: the whole query is the facet
	});

	it('drops stop words and question fillers from key words', () => {
		expect(splitFacets('如何在笔记之间创建链接')[0]!.words.map((w) => w.text)).toEqual(['笔记', '创建', '链接']);
		expect(splitFacets('how do I link notes')[0]!.words.map((w) => w.text)).toEqual(['link', 'notes']);
	});
});

describe('grading', () => {
	const key = (text: string, idf: number): KeyWord => ({ word: analyzeQueryText(text)[0]!, idf, expansions: [] });
	const terms = (text: string): Set<string> => new Set(allTermCounts(text).keys());

	it('grades by the idf-weighted share of key words held: ≥ 0.6 relevant, ≥ 0.3 partial', () => {
		const keys = [key('sync', 2), key('encryption', 2), key('notes', 0.5)];
		expect(gradeFacet(terms('Sync uses end-to-end encryption for notes.'), keys).grade).toBe('relevant');
		expect(gradeFacet(terms('Sync keeps notes current.'), keys)).toMatchObject({
			grade: 'partial',
			present: ['sync', 'notes'],
			missing: ['encryption'],
		});
		expect(gradeFacet(terms('Your notes are files.'), keys).grade).toBe('off-topic');
	});

	it('link text alone lifts a section to partial at most (seed rule 5: an address is not evidence)', () => {
		const keys = [key('copilot', 2), key('data', 1.5), key('handling', 2)];
		const mention = readerText('Still open: [[research/copilot-data-handling]], [[budget-2027]].');
		const prose = terms(mention.prose);
		const all = new Set([...prose, ...terms(mention.links)]);
		expect(gradeFacet(prose, keys, all)).toMatchObject({
			grade: 'partial',
			share: 0,
			linkedShare: 1,
			linkOnly: ['copilot', 'data', 'handling'],
		});
		expect(gradeFacet(prose, keys).grade).toBe('off-topic');
		expect(gradeFacet(terms('How Copilot handles data: handling rules.'), keys).grade).toBe('relevant');
	});

	it('counts an expansion (synonym, alias) as the word', () => {
		const k: KeyWord = {
			word: analyzeQueryText('快捷键')[0]!,
			idf: 1,
			expansions: [{ text: 'Hotkeys', alts: [['hotkei']] }],
		};
		expect(gradeFacet(terms('Set hotkeys in Settings.'), [k]).grade).toBe('relevant');
	});
});

describe('prose and link text', () => {
	it('puts wikilinks, Markdown link text, URLs and tags in link text; embeds, hidden targets and link URLs nowhere', () => {
		expect(readerText('Plain prose, no links.')).toEqual({ prose: 'Plain prose, no links.', links: '' });
		const r = readerText(
			'See [[Sync#Encryption]] and [[a/b|the guide]], [docs](https://x.test/y), https://z.test/q #security/policy ![[pic.png]] issue #12.',
		);
		expect(r.links.split('\n')).toEqual([
			'Sync Encryption',
			'the guide',
			'docs',
			'https://z.test/q',
			'#security/policy',
		]);
		expect(r.prose).not.toMatch(/Sync|guide|docs|test|security|pic/);
		expect(r.prose).toContain('issue #12.');
		expect(readerText('在[[内部链接|链接]]中').prose).toBe('在 中');
	});

	it('knows a question sentence by its final ? or ？', () => {
		expect(isQuestion('What do we know about Copilot data handling?')).toBe(true);
		expect(isQuestion('如何嵌入文件？')).toBe(true);
		expect(isQuestion('"Is it?"')).toBe(true);
		expect(isQuestion('Prompts are not retained.')).toBe(false);
		expect(isQuestion('Is it? Yes.')).toBe(false);
	});
});

describe('term counting', () => {
	it('counts CJK bigrams and other terms as the tokenizer would', () => {
		const needed = new Set(['链接', '标签', 'link', 'tag']);
		const text = '在笔记中添加链接与标签。Links and tags: link, tagging. 标签页也有链接';
		const counts = new Map<string, number>();
		new TermCounter(needed).count(text, counts);
		const exact = allTermCounts(text);
		for (const t of needed) expect(counts.get(t) ?? 0, t).toBe(exact.get(t) ?? 0);
	});
});

const NOTE = [
	'---',
	'date: 2024-03-01',
	'---',
	'Intro line before any heading.',
	'',
	'# Title',
	'',
	'First sentence. Second sentence! Third one?',
	'',
	'## Links',
	'',
	'- Type [[ to link. ^item1',
	'- Another item',
	'  - child item',
	'',
	'> [!note] Callout title',
	'> Quoted line one.',
	'',
	'| Key | Action |',
	'|-----|--------|',
	'| Ctrl | Open |',
	'',
	'```js',
	'code();',
	'```',
	'',
	'### Deep',
	'',
	'Deep text ^para',
	'',
	'## Other',
	'',
	'中文第一句。第二句！第三句？',
].join('\n');

describe('sections, blocks and references', () => {
	const meta = parseNote(NOTE).metadata;
	const units = noteUnits(NOTE, meta);
	const textOf = (u: { start: number; end: number }): string => NOTE.slice(u.start, u.end);

	it('splits leaf sections at every heading, with the text before the first heading', () => {
		expect(sectionsOf(NOTE, meta).map((s) => s.heading)).toEqual([null, 'Title', 'Links', 'Deep', 'Other']);
	});

	it('quotes paragraphs, list items (no marker, no block id), quote lines, table rows, fenced code as its own kind; never callout headers', () => {
		const links = sectionsOf(NOTE, meta)[2]!;
		const inLinks = unitsIn(units, links);
		expect(inLinks.filter((u) => u.kind !== 'code').map(textOf)).toEqual([
			'Type [[ to link.',
			'Another item',
			'child item',
			'Quoted line one.',
			'| Key | Action |',
			'| Ctrl | Open |',
		]);
		// The pack keeps code only for how-to questions or when the question names the command (code.ts).
		expect(inLinks.filter((u) => u.kind === 'code').map(textOf)).toEqual(['```js\ncode();\n```']);
	});

	it('resolves #Heading (with subsections), #A#B and ^block-id', () => {
		const links = headingSection(NOTE, meta, '#Links');
		expect(links && NOTE.slice(links.start, links.end)).toContain('Deep text');
		expect(headingSection(NOTE, meta, '#Title#Deep')?.heading).toBe('Deep');
		expect(headingSection(NOTE, meta, '#Nope')).toBeNull();
		const block = blockSection(meta, 'ITEM1');
		expect(block).toMatchObject({ heading: 'Links', blockId: 'item1' });
		expect(block && unitsIn(units, block).map(textOf)).toEqual(['Type [[ to link.']);
	});

	it('finds references in a query and replaces them with plain words for the search', () => {
		const q = 'what does [[Internal links#Link to a block|blocks]] say about ^abc-1 and [[Sync]]?';
		expect(linkRefsIn(q)).toEqual([
			{
				raw: '[[Internal links#Link to a block|blocks]]',
				linkpath: 'Internal links',
				subpath: '#Link to a block',
			},
			{ raw: '[[Sync]]', linkpath: 'Sync', subpath: '' },
			{ raw: '^abc-1', linkpath: '', subpath: '#^abc-1' },
		]);
		expect(withoutRefs(q)).toBe('what does blocks say about and Sync ?');
	});

	it('maps offsets to 1-based lines', () => {
		const lines = new LineIndex('a\nb\n\nc');
		expect([0, 1, 2, 3, 4, 5].map((o) => lines.lineOf(o))).toEqual([1, 1, 2, 2, 3, 4]);
	});
});

describe('quotes', () => {
	const meta = parseNote(NOTE).metadata;
	const units = noteUnits(NOTE, meta);

	it('splits sentences with Intl.Segmenter, CJK punctuation included', () => {
		const other = sectionsOf(NOTE, meta)[4]!;
		expect(sentencesOf(NOTE, unitsIn(units, other)).map((s) => NOTE.slice(s.start, s.end))).toEqual([
			'中文第一句。',
			'第二句！',
			'第三句？',
		]);
	});

	it('treats line breaks inside a paragraph as soft', () => {
		const text = 'One sentence\nwrapped here. Two.';
		expect(
			sentencesOf(text, [{ start: 0, end: text.length, kind: 'prose' }]).map((s) => text.slice(s.start, s.end)),
		).toEqual(['One sentence\nwrapped here.', 'Two.']);
	});

	it('picks the best sentences, longest choice first, whole sentences, cuts marked', () => {
		const title = sectionsOf(NOTE, meta)[1]!;
		const sentences = sentencesOf(NOTE, unitsIn(units, title));
		const variants = quoteVariants(sentences, [1, 0, 2]);
		expect(variants.map((v) => v.map((s) => [NOTE.slice(s.start, s.end), s.cutBefore]))).toEqual([
			[
				['First sentence.', false],
				['Third one?', true],
			],
			[['Third one?', false]],
		]);
		// Nothing scores (a section named by reference): its opening sentences, shortest last.
		expect(quoteVariants(sentences, [0, 0, 0]).map((v) => v.map((s) => NOTE.slice(s.start, s.end)))).toEqual([
			['First sentence. Second sentence! Third one?'],
			['First sentence. Second sentence!'],
			['First sentence.'],
		]);
	});
});

describe('budget', () => {
	it('places the best first and the second best last', () => {
		expect(placement(0)).toEqual([]);
		expect(placement(1)).toEqual([0]);
		expect(placement(2)).toEqual([0, 1]);
		expect(placement(5)).toEqual([0, 2, 3, 4, 1]);
	});

	it('fills best first, tries shorter quote choices, and stops at the first that cannot fit', () => {
		const sizes = [[40, 10], [50, 30], [5]];
		const fill = fillBudget({
			budget: 100,
			count: 3,
			variants: (i) => sizes[i]!.length,
			block: (i, v) => ({ cjk: sizes[i]![v]!, other: 0 }),
			frame: (chosen, leftOut) => ({ cjk: 20 + 2 * leftOut.length, other: 0 }),
		});
		// 20 + 40 + 2·2 ≤ 100; then 50 does not fit (20 + 40 + 50 + 2) but 30 does; then 5 fits.
		expect(fill).toEqual({
			chosen: [
				{ item: 0, variant: 0 },
				{ item: 1, variant: 1 },
				{ item: 2, variant: 0 },
			],
			leftOut: [],
		});
		const tight = fillBudget({
			budget: 70,
			count: 3,
			variants: (i) => sizes[i]!.length,
			block: (i, v) => ({ cjk: sizes[i]![v]!, other: 0 }),
			frame: () => ({ cjk: 20, other: 0 }),
		});
		expect(tight).toEqual({ chosen: [{ item: 0, variant: 0 }], leftOut: [1, 2] });
	});
});

describe('note rules', () => {
	it('dates notes from the date properties in order, skips placeholders, else the modification time marked as such', () => {
		const mtime = Date.UTC(2022, 4, 6, 12);
		expect(noteDate({ date: '2024-03-01' }, mtime)).toEqual({
			date: '2024-03-01',
			source: 'frontmatter',
			key: 'date',
		});
		expect(noteDate({ Created: '2023-09-12T10:00', date: '{{date}}' }, mtime)).toEqual({
			date: '2023-09-12',
			source: 'frontmatter',
			key: 'Created',
		});
		expect(noteDate({ updated: '[[2025-01-02]]' }, null)).toEqual({
			date: '2025-01-02',
			source: 'frontmatter',
			key: 'updated',
		});
		expect(noteDate({ 'date modified': ['oops', '2021-01-01'] }, null)).toEqual({
			date: '2021-01-01',
			source: 'frontmatter',
			key: 'date modified',
		});
		expect(noteDate({ last_verified: '2026-06-01', created: '2026-01-01' }, null)).toEqual({
			date: '2026-01-01',
			source: 'frontmatter',
			key: 'created',
		});
		expect(noteDate({ title: 'x' }, mtime)).toEqual({ date: '2022-05-06', source: 'mtime', key: null });
		expect(noteDate(undefined, null)).toBeNull();
		// The list is a setting: only the keys it names count.
		expect(noteDate({ published: '2020-02-02', date: '2024-03-01' }, mtime, ['published'])).toEqual({
			date: '2020-02-02',
			source: 'frontmatter',
			key: 'published',
		});
		expect(noteDate({ date: '2024-03-01' }, mtime, ['published'])).toMatchObject({ source: 'mtime' });
	});

	it('leaves out drafts and archived notes by status, property or tag', () => {
		const meta = (text: string): ReturnType<typeof exclusionOf> => exclusionOf(parseNote(text).metadata);
		expect(meta('---\nstatus: draft\n---\nx')).toBe('draft');
		expect(meta('---\nstatus: Archived\n---\nx')).toBe('archived');
		expect(meta('---\narchived: true\n---\nx')).toBe('archived');
		expect(meta('---\ntags: [archive/2023]\n---\nx')).toBe('archived');
		expect(meta('Body with #archived tag')).toBe('archived');
		expect(meta('---\nstatus: active\ntags: [archives]\n---\nx')).toBeNull();
	});
});
