/**
 * Context packs on real vaults (read-only, never copied): a Chinese question on
 * obsidian-help-i18n/zh, dated sources on kepano-obsidian, and the budget sweep — for random
 * queries and budgets from 200 to 20,000 tokens, the rendered pack never exceeds the budget and
 * every quote is a substring of its note within the cited lines.
 */
import fc from 'fast-check';

import { statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { buildPack, estimateTokens, type ContextPack } from '../../src/core/pack/pack';
import type { NoteSource } from '../../src/core/port';
import { SearchIndex } from '../../src/core/search/search';
import { openVault } from '../../src/node/vault-source';
import { hashTree } from '../helpers/hash';
import { describeShared, HELP_VAULT, KEPANO_VAULT } from '../helpers/shared';

const ZH = join(HELP_VAULT, 'zh');

/** The checks every pack must pass: within budget, honest tokens_used, grounded quotes, dated sources. */
async function expectSound(source: NoteSource, pack: ContextPack, budget: number): Promise<void> {
	if (pack.status === 'failed') {
		expect(pack.markdown).toBe('');
		expect(pack.error).toBeTruthy();
		return;
	}
	const used = estimateTokens(pack.markdown);
	expect(used).toBeLessThanOrEqual(budget);
	expect(pack.handoff.tokens_used).toBe(used);
	expect(pack.handoff.source_count).toBe(pack.pack.length);
	expect(new Set(pack.pack.map((s) => s.id)).size).toBe(pack.pack.length);
	for (const s of pack.pack) {
		expect(s.date).toMatch(/^\d{4}-\d{2}-\d{2}$|^undated$/);
		expect(s.quotes.length).toBeGreaterThanOrEqual(1);
		expect(s.quotes.length).toBeLessThanOrEqual(3);
		expect(s.lines[0]).toBeLessThanOrEqual(s.lines[1]);
		const cited = (await source.read(s.path))
			.split('\n')
			.slice(s.lines[0] - 1, s.lines[1])
			.join('\n');
		for (const q of s.quotes) {
			expect(q.trim()).toBe(q);
			expect(cited, `${s.id} ${s.path} ${s.lines.join('-')}`).toContain(q);
		}
	}
}

/** Words and references to build random queries from: heading words, titles, `[[Note#Heading]]`. */
function queryParts(source: NoteSource): { words: string[]; refs: string[] } {
	const words = new Set<string>();
	const refs: string[] = [];
	for (const path of source.listNotes()) {
		const meta = source.getMetadata(path);
		const name = path.slice(path.lastIndexOf('/') + 1).replace(/\.md$/, '');
		words.add(name);
		for (const h of meta?.headings ?? []) {
			for (const w of h.heading.split(/\s+/)) if (w.length > 1) words.add(w);
			if (refs.length < 200) refs.push(`[[${name}#${h.heading}]]`);
		}
		for (const id of Object.keys(meta?.blocks ?? {})) if (refs.length < 400) refs.push(`^${id}`);
	}
	return { words: [...words].slice(0, 3000), refs };
}

/** Random questions: 1–5 vault words joined by spaces, commas, "and", CJK punctuation, sometimes a reference. */
function queries(parts: { words: string[]; refs: string[] }): fc.Arbitrary<string> {
	const sep = fc.constantFrom(' ', ' ', ', ', ' and ', '，', '、', '以及', '？', '; ', ' how do I ');
	const word = fc.constantFrom(...parts.words);
	const tail = parts.refs.length > 0 ? fc.option(fc.constantFrom(...parts.refs), { freq: 4 }) : fc.constant(null);
	return fc.tuple(fc.array(fc.tuple(word, sep), { minLength: 1, maxLength: 5 }), tail).map(
		([pairs, ref]) =>
			`${pairs
				.map(([w, s]) => w + s)
				.join('')
				.trim()}${ref === null ? '' : ` ${ref}`}`,
	);
}

/** The property over 60 random (query, budget) pairs; many must give real packs, so the sweep tests something. */
async function sweep(source: NoteSource, index: SearchIndex, expectCuts: boolean): Promise<void> {
	const parts = queryParts(source);
	let runs = 0;
	let withSources = 0;
	let cut = 0;
	await fc.assert(
		// Half the budgets under 1,000 tokens, where cuts and the frame's own size matter most.
		fc.asyncProperty(
			queries(parts),
			fc.oneof(fc.integer({ min: 200, max: 1000 }), fc.integer({ min: 200, max: 20_000 })),
			async (query, budget) => {
				const pack = await buildPack(source, index, { query, budget, builtAt: '2026-07-01' });
				await expectSound(source, pack, budget);
				runs++;
				if (pack.pack.length > 0) withSources++;
				if (pack.gaps.some((g) => g.kind === 'budget')) cut++;
			},
		),
		{ numRuns: 60 },
	);
	expect(withSources).toBeGreaterThan(runs / 4);
	if (expectCuts) expect(cut).toBeGreaterThan(0);
}

describeShared('context packs on obsidian-help-i18n/zh', () => {
	let source: NoteSource;
	let index: SearchIndex;
	let before: string;

	beforeAll(async () => {
		before = hashTree(ZH);
		source = await openVault(ZH);
		index = await SearchIndex.build(source);
	});

	it('a Chinese question: verbatim Chinese quotes, each dated (no date properties here: the modification time, marked as such)', async () => {
		const pack = await buildPack(source, index, {
			query: '如何链接到笔记中的标题，以及如何嵌入文件？',
			budget: 1200,
			builtAt: '2026-07-01',
		});
		await expectSound(source, pack, 1200);
		expect(pack.status).toBe('success');
		expect(pack.coverage.map((c) => [c.facet, c.status])).toEqual([
			['如何链接到笔记中的标题', 'covered'],
			['如何嵌入文件', 'covered'],
		]);
		const mtime = statSync(join(source.vaultPath, '链接笔记与文件/内部链接.md')).mtimeMs;
		expect(pack.pack[0]).toMatchObject({
			id: 'S1',
			path: '链接笔记与文件/内部链接.md',
			section: '链接到笔记中的标题',
			date: new Date(mtime).toISOString().slice(0, 10),
			date_source: 'mtime',
		});
		expect(pack.pack[0]!.quotes[0]).toBe('你可以链接到笔记中的特定标题，也称为_锚点链接_。');
		expect(pack.pack.length).toBeGreaterThanOrEqual(4);
		for (const s of pack.pack) {
			expect(s.date_source).toBe('mtime');
			// A how-to question (如何嵌入文件) quotes the fenced example too.
			for (const q of s.quotes) expect(q).toMatch(/\p{sc=Han}|^```/u);
		}
		expect(pack.markdown).toContain(
			`### [S1] 链接笔记与文件/内部链接.md § 链接到笔记中的标题 (lines 67–71) · ${pack.pack[0]!.date} (file modified)`,
		);
		expect(pack.markdown).not.toContain('undated');
		expect(pack.gaps.some((g) => g.kind === 'budget')).toBe(true);
	});

	it('budget sweep: random queries, budgets 200–20,000 — within budget, quotes verbatim within the cited lines', async () => {
		await sweep(source, index, true);
		expect(hashTree(ZH)).toBe(before);
	});
});

describeShared('context packs on kepano-obsidian', () => {
	let source: NoteSource;
	let index: SearchIndex;

	beforeAll(async () => {
		source = await openVault(KEPANO_VAULT);
		index = await SearchIndex.build(source);
	});

	it('sources carry their frontmatter dates', async () => {
		const pack = await buildPack(source, index, { query: 'evergreen notes', budget: 1500, builtAt: '2026-07-01' });
		await expectSound(source, pack, 1500);
		const evergreen = pack.pack.find((s) =>
			s.path.endsWith('/Evergreen notes turn ideas into objects that you can manipulate.md'),
		);
		expect(evergreen?.date).toBe('2023-09-14');
		expect(pack.markdown).toMatch(
			/Evergreen notes turn ideas into objects that you can manipulate\.md § .+ · 2023-09-14 \(created\)/,
		);
	});

	it('budget sweep: random queries, budgets 200–20,000', async () => {
		await sweep(source, index, false);
	});
});
