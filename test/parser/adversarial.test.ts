/**
 * Hostile note content (issues 13 and 15): the parser never throws, refuses what cannot be read
 * with a reason, and stays linear on the shapes that were quadratic.
 */
import { describe, expect, it } from 'vitest';
import { parseNote } from '../../src/node/parser/index';
import { expectLinear } from '../helpers/work';

/** Ten anchors, each listing the previous one nine times: 9^10 values when walked as a tree. */
function aliasBomb(leaf: string): string {
	const lines = [`a0: &a0 ["${leaf}"]`];
	for (let i = 1; i < 10; i++)
		lines.push(
			`a${i}: &a${i} [${Array(9)
				.fill(`*a${i - 1}`)
				.join(', ')}]`,
		);
	return `---\n${lines.join('\n')}\n---\nThe body still counts. #kept\n`;
}

/** Frontmatter of `n` keys. */
function manyKeys(n: number): string {
	return `---\n${Array.from({ length: n }, (_, i) => `key${i}: value ${i}`).join('\n')}\n---\nbody\n`;
}

describe('the parser on hostile notes', () => {
	it('reports frontmatter holding a YAML document end `...` followed by more text, instead of throwing', () => {
		const parsed = parseNote('---\na: 1\n...\nb: 2\n---\nbody #t\n');
		expect(parsed.frontmatterError).toMatch(/single document/);
		expect(parsed.metadata.frontmatter).toBeUndefined();
		expect(parsed.metadata.tags?.map((t) => t.tag)).toEqual(['#t']);
	});

	it('reports lone surrogates and control characters in frontmatter, keeping the body', () => {
		const parsed = parseNote('---\na: x\uD800y\n---\n# Title\n');
		expect(parsed.frontmatterError).toMatch(/line 2: .*non-printable/);
		expect(parsed.metadata.headings?.[0]!.heading).toBe('Title');
		expect(() => parseNote('\uDC00[[\uD800]] #\uDFFF\r\n---\r\r\n')).not.toThrow();
	});

	it('reads CR-only line ends as line ends: frontmatter, headings and tags survive, offsets unchanged', () => {
		const text = '---\rstatus: draft\rtags: [a]\r---\r# Heading\rBody #tag\r';
		const parsed = parseNote(text);
		expect(parsed.frontmatterError).toBeNull();
		expect(parsed.metadata.frontmatter).toEqual({ status: 'draft', tags: ['a'] });
		const offset = text.indexOf('# Heading');
		expect(parsed.metadata.headings?.[0]).toMatchObject({
			heading: 'Heading',
			position: { start: { line: 4, offset } },
		});
		expect(parsed.metadata.tags?.[0]).toMatchObject({
			tag: '#tag',
			position: { start: { line: 5, offset: text.indexOf('#tag') } },
		});
	});

	it('refuses a YAML alias bomb and says why; the body is still parsed', () => {
		// Refused by counting the values it expands to (a walk of 9^10 would run into the test's timeout).
		for (const leaf of ['x', '[[x]]']) {
			const parsed = parseNote(aliasBomb(leaf));
			expect(parsed.frontmatterError).toMatch(/expands to more than \d+ values \(YAML aliases/);
			expect(parsed.metadata.frontmatter).toBeUndefined();
			expect(parsed.metadata.frontmatterLinks).toBeUndefined();
			expect(parsed.metadata.tags?.map((t) => t.tag)).toEqual(['#kept']);
		}
	});

	it('keeps an alias used a few times (ordinary YAML reuse)', () => {
		const parsed = parseNote('---\nbase: &b {owner: "[[Ann]]"}\ncopy: *b\n---\n');
		expect(parsed.frontmatterError).toBeNull();
		expect(parsed.metadata.frontmatterLinks?.map((l) => l.key)).toEqual(['base.owner', 'copy.owner']);
	});

	it('refuses custom tags such as !!js/function with the YAML error', () => {
		const parsed = parseNote('---\nf: !!js/function "function () { return 1 }"\n---\nbody\n');
		expect(parsed.frontmatterError).toMatch(/line 2: unknown tag/);
	});

	it('refuses 10k-deep nesting and 1,000-deep [[[…]]] without echoing them', () => {
		const deep = parseNote(`---\nx: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n---\nbody\n`);
		expect(deep.frontmatterError).toMatch(/nests (too deeply|deeper than)/);
		const deepLinks = parseNote(`---\nx: ${'['.repeat(1000)}"[[a]]"${']'.repeat(1000)}\n---\n`);
		expect(deepLinks.frontmatterError).toMatch(/nests deeper than 64 levels/);
		expect(deepLinks.metadata.frontmatter).toBeUndefined();
		const block = parseNote(
			`---\nx:\n${Array.from({ length: 200 }, (_, i) => `${'  '.repeat(i + 1)}k${i}:`).join('\n')} v\n---\n`,
		);
		expect(block.frontmatterError).toMatch(/nests deeper than 64 levels/);
	});

	it('keeps block ids named like object properties', () => {
		const { metadata } = parseNote('One ^constructor\n\nTwo ^hasOwnProperty\n\nThree ^toString\n');
		expect(Object.keys(metadata.blocks ?? {})).toEqual(['constructor', 'hasownproperty', 'tostring']);
		expect(metadata.blocks?.['constructor' as string]!.id).toBe('constructor');
		expect(metadata.blocks?.['tostring']!.position.start.line).toBe(4);
		expect(parseNote('Only ^other\n').metadata.blocks?.['constructor' as string]).toBeUndefined();
	});

	it('parses 100k nested list markers or quote markers on one line in linear work, nesting at most 256 deep', () => {
		const { metadata } = parseNote(`${'- '.repeat(100_000)}word\n`);
		expect(metadata.listItems?.length).toBe(256);
		expectLinear('list markers', (n) => `${'- '.repeat(n)}word\n`, parseNote, 50_000);
		const quotes = parseNote(`${'>'.repeat(500_000)} #deep\n`);
		expect(quotes.metadata.sections?.[0]!.type).toBe('blockquote');
		expectLinear('quote markers', (n) => `${'>'.repeat(n)} #deep\n`, parseNote, 250_000);
		expect(parseNote(`${'- '.repeat(200)}word\n`).metadata.listItems?.length).toBe(200);
		expect(parseNote('- - - word\n').metadata.listItems?.length).toBe(3);
		expect(parseNote('- - -\n').metadata.sections?.[0]!.type).toBe('thematicBreak');
		expect(parseNote('- * * *\n').metadata.listItems?.length).toBe(1);
	});

	it('parses 80k frontmatter keys in linear work', () => {
		const { metadata, frontmatterError } = parseNote(manyKeys(80_000));
		expect(frontmatterError).toBeNull();
		expect(Object.keys(metadata.frontmatter ?? {}).length).toBe(80_000);
		expectLinear('frontmatter keys', manyKeys, parseNote, 10_000);
	});
});
