/** buildPack end to end on a small in-memory vault, and the CLI command on the example vault. */
import { describe, expect, it } from 'vitest';
import {
	buildPack,
	DEFAULT_BUDGET,
	estimateTokens,
	HANDOFF_INSTRUCTION,
	TOKEN_ESTIMATOR,
	type ContextPack,
	type PackRequest,
} from '../../src/core/pack/pack';
import { PROFILES } from '../../src/core/config/profiles';
import { SearchIndex } from '../../src/core/search/search';
import { cli } from '../helpers/cli';
import { EXAMPLE_VAULT } from '../helpers/paths';
import { openVault } from '../../src/node/vault-source';
import { MemorySource } from '../helpers/memory-source';

const VAULT: Record<string, string> = {
	'notes/sync.md': [
		'---',
		'date: 2025-05-01',
		'tags: [sync]',
		'---',
		'# Sync',
		'',
		'Sync keeps your vault the same on every device.',
		'',
		'## Encryption',
		'',
		'Sync uses end-to-end encryption. Your password never leaves the device. The encryption key is derived on the device.',
		'',
		'## Pricing',
		'',
		'Sync costs 4 dollars per month, billed yearly. A monthly plan costs 5 dollars.',
		'',
	].join('\n'),
	'notes/old-sync.md':
		'---\ncreated: 2019-01-01\n---\n# Old sync\n\nSync once used plain transfer without encryption. That was replaced.\n',
	'drafts/sync-draft.md': '---\nstatus: draft\n---\n# Draft\n\nSync encryption will use a new cipher next year.\n',
	'old/sync-archive.md': '---\ntags: [archive]\n---\n# Archived\n\nSync encryption used to be optional.\n',
	'notes/links.md':
		'# Internal links\n\nLinks join notes.\n\n## Link to a block\n\nAdd a caret and an id after a paragraph to link to it. Then link with [[Note#^id]]. ^howto\n\nBlocks can be embedded too.\n\n## Link to a heading\n\nUse a hash after the note name.\n',
	'notes/hub.md': '# Hub\n\nSee [[links#Link to a heading]] for headings and [[sync]] for devices.\n',
};

async function packOf(request: PackRequest, files: Record<string, string> = VAULT): Promise<ContextPack> {
	const source = new MemorySource(files);
	const index = await SearchIndex.build(
		source,
		{ keywordIndexPath: '', synonymsPath: '' },
		{ yieldFn: () => Promise.resolve() },
	);
	return buildPack(source, index, { builtAt: '2026-02-03', ...request });
}

/** Every quote is a substring of its note within the cited lines. */
function expectGrounded(pack: ContextPack, files: Record<string, string>): void {
	for (const s of pack.pack) {
		const lines = files[s.path]!.split('\n')
			.slice(s.lines[0] - 1, s.lines[1])
			.join('\n');
		for (const q of s.quotes) expect(lines, `${s.id} ${s.path}`).toContain(q);
	}
}

describe('buildPack', () => {
	it('answers each sub-question with dated, verbatim quotes, and names the gap', async () => {
		const pack = await packOf({
			query: 'how does sync encryption work, and what does sync cost? and how do I export to PDF?',
		});
		expect(pack.status).toBe('success');
		expect(pack.coverage.map((c) => [c.facet, c.status])).toEqual([
			['how does sync encryption work', 'covered'],
			['what does sync cost', 'covered'],
			['how do I export to PDF', 'gap'],
		]);
		expect(pack.gaps).toContainEqual({
			kind: 'unanswered',
			facet: 'how do I export to PDF',
			text: '"how do I export to PDF": no note in the vault answers it',
		});
		const enc = pack.pack.find((s) => s.section === 'Encryption');
		expect(enc).toMatchObject({ path: 'notes/sync.md', date: '2025-05-01', lines: [11, 11] });
		expect(enc?.quotes.join(' ')).toContain('Sync uses end-to-end encryption.');
		const old = pack.pack.find((s) => s.path === 'notes/old-sync.md');
		expect(old?.date).toBe('2019-01-01');
		expect(pack.markdown).toContain('notes/old-sync.md § Old sync (line 6) · 2019-01-01 (created)');
		for (const s of pack.pack) expect(s.date).toMatch(/^\d{4}-\d{2}-\d{2}$|^undated$/);
		expectGrounded(pack, VAULT);
	});

	it('leaves out drafts and archived notes unless asked, and says so', async () => {
		const pack = await packOf({ query: 'sync encryption' });
		const paths = pack.pack.map((s) => s.path);
		expect(paths).not.toContain('drafts/sync-draft.md');
		expect(paths).not.toContain('old/sync-archive.md');
		expect(
			pack.gaps
				.filter((g) => g.kind === 'excluded')
				.map((g) => g.text)
				.sort(),
		).toEqual(['Left out as a draft: drafts/sync-draft.md', 'Left out as archived: old/sync-archive.md']);
		expect(pack.limitations.some((l) => l.startsWith('Left out 2 matching note(s) as drafts'))).toBe(true);
		const all = await packOf({ query: 'sync encryption', includeDrafts: true, includeArchived: true });
		expect(all.pack.map((s) => s.path)).toEqual(
			expect.arrayContaining(['drafts/sync-draft.md', 'old/sync-archive.md']),
		);
		expect(all.gaps.filter((g) => g.kind === 'excluded')).toEqual([]);
	});

	it('writes the handoff contract: the seed fields, the estimator, the default-budget note, tokens_used of the whole Markdown', async () => {
		const pack = await packOf({ query: 'sync encryption', task: 'write a FAQ entry' });
		expect(pack.handoff).toEqual({
			query: 'sync encryption',
			token_budget: DEFAULT_BUDGET,
			tokens_used: estimateTokens(pack.markdown),
			source_count: pack.pack.length,
			vault_path: '/memory/vault',
			built_at: '2026-02-03',
			instruction: HANDOFF_INSTRUCTION,
			estimator: TOKEN_ESTIMATOR,
			task: 'write a FAQ entry',
			budget_note: 'No budget was given: the default of 2000 tokens was used.',
		});
		const given = await packOf({ query: 'sync encryption', budget: 2000 });
		expect(given.handoff.budget_note).toBeUndefined();
		const md = pack.markdown;
		const order = [
			'# Context pack',
			'Task: write a FAQ entry',
			'## PACK',
			'## COVERAGE',
			'## GAPS',
			'## HANDOFF',
			'```json',
		].map((h) => md.indexOf(h));
		expect(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1]!))).toBe(true);
		expect(JSON.parse(md.slice(md.indexOf('```json') + 7, md.lastIndexOf('```')))).toEqual(pack.handoff);
	});

	it('places the best source first and the second best last; ids are by rank', async () => {
		const pack = await packOf({
			query: 'sync encryption',
			budget: 5000,
			includeDrafts: true,
			includeArchived: true,
		});
		const ids = pack.pack.map((s) => s.id);
		expect(ids.length).toBeGreaterThanOrEqual(3);
		expect(ids[0]).toBe('S1');
		expect(ids[ids.length - 1]).toBe('S2');
		expect(pack.markdown.indexOf('[S1]')).toBeLessThan(pack.markdown.indexOf('[S3]'));
		expect(pack.markdown.indexOf('[S3]')).toBeLessThan(pack.markdown.indexOf('[S2]'));
	});

	it('resolves [[Note#Heading]] and ^block-id in the query to their section or block, first', async () => {
		const heading = await packOf({ query: 'what does [[links#Link to a heading]] say' });
		expect(heading.pack[0]).toMatchObject({
			id: 'S1',
			path: 'notes/links.md',
			section: 'Link to a heading',
			quotes: ['Use a hash after the note name.'],
		});
		const block = await packOf({ query: 'explain ^howto' });
		expect(block.pack[0]).toMatchObject({
			path: 'notes/links.md',
			section: 'Link to a block ^howto',
			lines: [7, 7],
		});
		expect(block.pack[0]!.quotes.join(' ')).toBe(
			'Add a caret and an id after a paragraph to link to it. Then link with [[Note#^id]].',
		);
		const missing = await packOf({ query: 'sync [[Nope#Nothing]] and [[links#No such heading]]' });
		expect(missing.gaps.filter((g) => g.kind === 'unresolved').map((g) => g.text)).toEqual([
			'Not found in the vault: [[Nope#Nothing]]',
			'Not found in the vault: [[links#No such heading]]',
		]);
	});

	it('lists sections left out for budget under GAPS and never exceeds the budget', async () => {
		const request = { query: 'sync encryption', includeDrafts: true, includeArchived: true };
		const roomy = await packOf({ ...request, budget: 5000 });
		const budget = roomy.handoff.tokens_used - 40;
		const tight = await packOf({ ...request, budget });
		expect(estimateTokens(tight.markdown)).toBeLessThanOrEqual(budget);
		expect(tight.handoff.tokens_used).toBe(estimateTokens(tight.markdown));
		expect(tight.pack.length).toBeLessThan(roomy.pack.length);
		const budgetGaps = tight.gaps.filter((g) => g.kind === 'budget');
		expect(budgetGaps.length).toBeGreaterThan(0);
		expect(budgetGaps[0]!.text).toMatch(/^Left out for budget: .+ § .+ \(lines? \d+/);
	});

	it('fails with a message naming the parameter', async () => {
		const empty = await packOf({ query: '  ' });
		expect(empty).toMatchObject({ status: 'failed', markdown: '' });
		expect(empty.error).toMatch(/^query: empty/);
		expect((await packOf({ query: 'sync', builtAt: '3 May' })).error).toMatch(/^built_at:/);
		expect((await packOf({ query: 'sync', budget: 0 })).error).toMatch(/^budget:/);
		expect((await packOf({ query: 'sync /[/' })).error).toMatch(/^query: regex/);
		const tiny = await packOf({ query: 'sync encryption', budget: 60 });
		expect(tiny).toMatchObject({ status: 'failed', markdown: '' });
		expect(tiny.error).toMatch(
			/^budget: 60 tokens cannot hold even an empty pack \(its headings, coverage and handoff need \d+\)/,
		);
	});

	it('is a success with no sources when nothing answers', async () => {
		const pack = await packOf({ query: 'quantum chromodynamics' });
		expect(pack).toMatchObject({ status: 'success', pack: [], coverage: [{ status: 'gap' }] });
		expect(pack.markdown).toContain('No section of the vault answers this query.');
	});
});

describe('quote choice', () => {
	it('ranks a question sentence below declarative sentences holding the same words', async () => {
		const files = {
			'notes/crypto.md':
				'# Encryption\n\nDoes sync encrypt notes? Sync encrypts notes on the device. Sync encrypts notes end to end. Notes sync encrypted at rest. Sync keeps notes encrypted in transit.\n',
		};
		const pack = await packOf({ query: 'sync encrypt notes', budget: 2000 }, files);
		const quotes = pack.pack.flatMap((s) => s.quotes);
		expect(quotes.join(' ')).toContain('Sync encrypts notes on the device.');
		expect(quotes.join(' ')).not.toContain('Does sync encrypt notes?');
		expectGrounded(pack, files);
	});
});

describe('link text is not evidence (examples/vault)', () => {
	it("mentions by wikilink or tag are not quoted as relevant evidence; the fact note's retention sentence is quoted", async () => {
		const source = await openVault(EXAMPLE_VAULT);
		// examples/vault selects the team-folders profile (its data.json): its keyword index steers this pack.
		const { keywordIndexPath, excludedFolders } = PROFILES['team-folders']!.settings;
		const index = await SearchIndex.build(source, { keywordIndexPath, excludedFolders });
		const pack = await buildPack(source, index, {
			query: 'What do we know about Copilot data handling?',
			budget: 400,
			builtAt: '2026-11-29',
		});
		// partial: examples/vault holds a note whose frontmatter does not parse (searched by its body, and said so).
		expect(pack.status).toBe('partial');
		expect(estimateTokens(pack.markdown)).toBeLessThanOrEqual(400);
		const quotes = pack.pack.flatMap((s) => s.quotes);
		// Only a wikilink names the topic here: a mention, not evidence, so it never outranks real evidence.
		const digest = pack.pack.find((s) => s.path === 'digests/2026-w25.md');
		const relevant = new Set(pack.coverage[0]!.sources);
		expect(digest === undefined || !relevant.has(digest.id)).toBe(true);
		expect(pack.pack.some((s) => s.path === 'people/ravi-patel.md' && relevant.has(s.id))).toBe(false);
		// The research note only asks and points ("The facts so far are in [[copilot-data-retention]]"): the pointer is followed.
		expect(pack.pack[0]).toMatchObject({ id: 'S1', path: 'facts/copilot-data-retention.md', lines: [13, 16] });
		expect(pack.pack[0]!.quotes[0]).toBe(
			'For business seats, prompts and suggestions are not retained after the suggestion is returned\nwhen used in the IDE. #copilot/policy',
		);
		expect(pack.pack[0]!.quotes.join(' ')).not.toContain('Raised in');
		// The quote says "retained", not "data handling" (that is only a tag and a link): partial, and it says so.
		expect(pack.coverage[0]).toMatchObject({ status: 'partial', sources: ['S1'] });
		expect(pack.coverage[0]!.missing_terms).toContain('handling');
		const research = pack.pack.find((s) => s.path === 'research/copilot-data-handling.md');
		expect(research === undefined || !relevant.has(research.id)).toBe(true);
		expect(
			quotes.some(
				(q) =>
					q.includes('Still open: [[research/copilot-data-handling]]') &&
					relevant.has(pack.pack.find((s) => s.quotes.includes(q))?.id ?? ''),
			),
		).toBe(false);
	});
});

describe('vault-query pack', () => {
	it('prints Markdown by default and the contract with --json; exit 0 / 1 / 2', async () => {
		const md = await cli([
			'pack',
			'controlled vocabulary tags',
			'--vault',
			EXAMPLE_VAULT,
			'--today',
			'2026-07-01',
			'--budget',
			'800',
		]);
		expect(md.code).toBe(0);
		expect(md.stdout).toMatch(/^# Context pack\n\n## PACK\n\n### \[S1\] /);
		expect(md.stdout).toContain('"built_at": "2026-07-01"');
		const json = await cli([
			'pack',
			'controlled vocabulary tags',
			'--vault',
			EXAMPLE_VAULT,
			'--today',
			'2026-07-01',
			'--json',
		]);
		const pack = JSON.parse(json.stdout) as ContextPack;
		expect(Object.keys(pack)).toEqual([
			'status',
			'query',
			'searched',
			'skipped',
			'limitations',
			'pack',
			'coverage',
			'gaps',
			'handoff',
			'markdown',
		]);
		expect(Object.keys(pack.pack[0]!)).toEqual(['id', 'path', 'section', 'lines', 'date', 'date_source', 'quotes']);
		expect(pack.handoff.budget_note).toBe('No budget was given: the default of 2000 tokens was used.');
		const none = await cli(['pack', 'xylophone zeppelin', '--vault', EXAMPLE_VAULT]);
		expect(none.code).toBe(1);
		expect((await cli(['pack', 'tags', '--vault', EXAMPLE_VAULT, '--budjet', '9'])).code).toBe(2);
		const badDay = await cli(['pack', 'tags', '--vault', EXAMPLE_VAULT, '--today', 'tomorrow']);
		expect(badDay.code).toBe(2);
		expect(badDay.stderr).toContain('--today must be a day (YYYY-MM-DD)');
		const small = await cli(['pack', 'tags', '--vault', EXAMPLE_VAULT, '--budget', '40']);
		expect(small).toMatchObject({ code: 2, stdout: '' });
		expect(small.stderr).toContain('vault-query pack: budget: 40 tokens cannot hold');
	});
});
