import { describe, expect, it } from 'vitest';
import { splitWhereText } from '../../src/core/reader/index';
import { paths, readerJson, SMALL_SCHEMA, tempVault } from './helpers';

const F = ['filter'];

describe('filter: typed predicates on examples/vault', () => {
	it.each([
		['rating>=7', ['skill-lab/code-review-checklist.md', 'skill-lab/dcf-valuation.md', 'skill-lab/sleep-debt.md']],
		['rating>7', ['skill-lab/dcf-valuation.md']],
		['rating<5', ['skill-lab/momentum-factor.md']],
		['rating=7.0', ['skill-lab/code-review-checklist.md', 'skill-lab/sleep-debt.md']],
		// `!=` needs the field set: position-sizing has no rating, so it is not "different".
		['rating!=7', ['skill-lab/dcf-valuation.md', 'skill-lab/discount-rate.md', 'skill-lab/momentum-factor.md']],
		['last_verified>=2026-06-01', ['skill-lab/dcf-valuation.md', 'skill-lab/position-sizing.md']],
		['last_verified<2026-01-01', ['skill-lab/sleep-debt.md']],
		[
			'last_verified<=2026-06-15T00:00',
			['skill-lab/discount-rate.md', 'skill-lab/position-sizing.md', 'skill-lab/sleep-debt.md'],
		],
		[
			'confidence>=likely',
			['skill-lab/dcf-valuation.md', 'skill-lab/discount-rate.md', 'skill-lab/position-sizing.md'],
		],
		['confidence<contested', ['skill-lab/momentum-factor.md']],
		['domain!=investing', ['skill-lab/code-review-checklist.md', 'skill-lab/sleep-debt.md']],
		['tags=risk', ['skill-lab/position-sizing.md']],
		['summary=value a business from its discounted free cash flows', ['skill-lab/dcf-valuation.md']],
	])('%s', async (where, expected) => {
		const { code, report } = await readerJson([...F, '--where', where]);
		expect(report.status).toBe('success');
		expect(paths(report)).toEqual(expected);
		expect(code).toBe(0);
	});

	it('every predicate must hold (repeated --where is AND)', async () => {
		const { report } = await readerJson([...F, '--where', 'type=claim', '--where', 'domain=investing']);
		expect(paths(report)).toEqual(['skill-lab/discount-rate.md', 'skill-lab/momentum-factor.md']);
		expect(report.query.where).toEqual(['type=claim', 'domain=investing']);
	});

	it('a where value keeps its commas (--where collects without splitting)', async () => {
		const { code, report } = await readerJson([...F, '--where', 'summary=cash, flows']);
		expect(report.query.where).toEqual(['summary=cash, flows']);
		expect(code).toBe(1);
		expect(report.status).toBe('success');
	});

	it('nothing matched is a success with zero results (exit 1)', async () => {
		const { code, report } = await readerJson([...F, '--where', 'domain=meta']);
		expect(code).toBe(1);
		expect(report).toMatchObject({ status: 'success', matched: 0, results: [] });
	});
});

describe('post-filters', () => {
	it('min_confidence keeps that level and stronger; notes without confidence are excluded', async () => {
		const { report } = await readerJson([...F, '--where', 'domain!=health', '--min-confidence', 'likely']);
		expect(paths(report)).toEqual([
			'skill-lab/dcf-valuation.md',
			'skill-lab/discount-rate.md',
			'skill-lab/position-sizing.md',
		]);
		expect(report.limitations.join('\n')).toContain(
			'min_confidence=likely (2 notes below it or without confidence excluded)',
		);
	});

	it('max_staleness_days counts from an injected today; never-verified notes pass', async () => {
		const { report } = await readerJson([
			...F,
			'--where',
			'type=claim',
			'--max-staleness-days',
			'30',
			'--today',
			'2026-06-30',
		]);
		// discount-rate (2026-05-01) and sleep-debt (2025-01-10) are stale; momentum-factor (last_verified: "") passes.
		expect(paths(report)).toEqual(['skill-lab/momentum-factor.md']);
		expect(report.limitations).toContain(
			'Filters applied: where type=claim; include_archived=false (1 note with status: archived excluded); max_staleness_days=30 (today 2026-06-30: last_verified on or after 2026-05-31; 2 notes excluded; never-verified notes pass)',
		);
		const wider = await readerJson([
			...F,
			'--where',
			'type=claim',
			'--max-staleness-days',
			'60',
			'--today',
			'2026-06-30',
		]);
		expect(paths(wider.report)).toEqual(['skill-lab/discount-rate.md', 'skill-lab/momentum-factor.md']);
	});

	it('a bad --today is rejected naming it', async () => {
		expect(
			(await readerJson([...F, '--where', 'type=claim', '--max-staleness-days', '3', '--today', '30/06/2026']))
				.report.error,
		).toBe('today: "30/06/2026" is not a date (YYYY-MM-DD)');
	});

	it('max_results caps the results and the report says how many there were', async () => {
		const { report } = await readerJson([...F, '--where', 'domain=investing', '--max-results', '2']);
		expect(report.results).toHaveLength(2);
		expect(report.matched).toBe(4);
		expect(report.limitations).toContain('Truncated to 2; 4 total matches before cap');
	});
});

describe('folders', () => {
	it('defaults to Notes/ and skill-lab/, saying which default is missing (and a case near miss)', async () => {
		const { report } = await readerJson([...F, '--where', 'type=source']);
		expect(report.searched.folders).toEqual(['skill-lab/']);
		expect(report.limitations[0]).toBe('Default folder Notes/ (notes/ differs only in case) not in this vault');
		expect(report.limitations[1]).toMatch(/^Folders not searched: \(vault root\), _meta\/, .*sources\//);
	});

	it('"all" searches the whole vault; it stands alone', async () => {
		const { report } = await readerJson([...F, '--where', 'type=source', '--folders', 'all']);
		expect(paths(report)).toEqual(['sources/kelly-criterion.md', 'sources/position-sizing.md']);
		expect(report.searched.folders).toEqual(['(whole vault)']);
		expect((await readerJson([...F, '--where', 'type=source', '--folders', 'all,skill-lab'])).report.error).toBe(
			'folders: "all" stands alone; it already includes every folder',
		);
	});

	it('under profile team-folders, with none of its folders in the vault, the whole vault is searched and the report says so', async () => {
		const vault = tempVault({
			'_meta/frontmatter-schema.md': SMALL_SCHEMA,
			'Zettel/a.md': '---\ntype: claim\nrating: 8\n---\nA\n',
		});
		const { report } = await readerJson([...F, '--where', 'rating>=8', '--profile', 'team-folders'], vault);
		expect(paths(report)).toEqual(['Zettel/a.md']);
		expect(report.limitations[0]).toBe(
			'Default folders Notes/, skill-lab/ are not in this vault: searched the whole vault instead',
		);
	});

	it('by default (no profile) the whole vault is searched without a word about default folders', async () => {
		const vault = tempVault({
			'_meta/frontmatter-schema.md': SMALL_SCHEMA,
			'Zettel/a.md': '---\ntype: claim\nrating: 8\n---\nA\n',
		});
		const { report } = await readerJson([...F, '--where', 'rating>=8'], vault);
		expect(paths(report)).toEqual(['Zettel/a.md']);
		expect(report.searched.folders).toEqual(['(whole vault)']);
		expect(report.limitations.join('\n')).not.toMatch(/Default folder/);
	});
});

describe('lookup', () => {
	it('tries each scoped folder in order; the first match wins', async () => {
		const first = await readerJson(['lookup', 'position-sizing', '--folders', 'sources,skill-lab']);
		expect(paths(first.report)).toEqual(['sources/position-sizing.md']);
		expect(first.report.tried).toEqual(['sources/position-sizing.md']);
		const second = await readerJson(['lookup', 'position-sizing', '--folders', 'skill-lab,sources']);
		expect(paths(second.report)).toEqual(['skill-lab/position-sizing.md']);
	});

	it('returns an excerpt by default and the whole body with --full-body', async () => {
		const short = await readerJson(['lookup', 'dcf-valuation', '--excerpt-chars', '40']);
		expect(short.report.results[0]!.excerpt.length).toBeLessThanOrEqual(41);
		expect(short.report.results[0]!.body).toBeUndefined();
		const full = await readerJson(['lookup', 'dcf-valuation', '--full-body']);
		expect(full.report.results[0]!.body).toMatch(
			/^# DCF valuation\n\nProject free cash flow[\s\S]*\[\[position-sizing\]\]\.\n$/,
		);
	});

	it('an archived note is excluded unless include_archived', async () => {
		expect((await readerJson(['lookup', 'index-funds'])).report.results).toEqual([]);
		expect(paths((await readerJson(['lookup', 'index-funds', '--include-archived'])).report)).toEqual([
			'skill-lab/index-funds.md',
		]);
	});

	it('a near-miss slug is suggested, never guessed', async () => {
		const { code, report } = await readerJson(['lookup', 'dcf-valuaton']);
		expect(code).toBe(1);
		expect(report.suggestions).toEqual(['did you mean slug "dcf-valuation"?']);
	});
});

describe('graph', () => {
	it('outbound body links resolve to vault, skill-library-ref or unresolved; inbound come from the scope', async () => {
		const { report } = await readerJson(['graph', 'dcf-valuation', '--known-skill-refs', 'excel-modeling']);
		const [note] = report.results;
		expect(
			note!.outbound?.map((l) => [l.linkpath, l.resolution, l.path?.replace(report.vault_path, '<vault>')]),
		).toEqual([
			['discount-rate', 'vault', '<vault>/skill-lab/discount-rate.md'],
			['terminal-growth', 'unresolved', undefined],
			['excel-modeling', 'skill-library-ref', undefined],
			['position-sizing', 'vault', '<vault>/skill-lab/position-sizing.md'],
		]);
		expect(note!.inbound).toEqual([{ path: 'skill-lab/discount-rate.md', source: 'body' }]);
		expect([note!.outbound_count, note!.inbound_count]).toEqual([4, 1]);
	});

	it('without known_skill_refs every unresolved link is unresolved; --no-resolve-wikilinks drops the paths', async () => {
		const { report } = await readerJson(['graph', 'dcf-valuation', '--no-resolve-wikilinks']);
		expect(report.results[0]!.outbound?.map((l) => l.resolution)).toEqual([
			'vault',
			'unresolved',
			'unresolved',
			'vault',
		]);
		expect(report.results[0]!.outbound?.every((l) => l.path === undefined)).toBe(true);
	});

	it('inbound links are counted from the scoped folders only', async () => {
		const scoped = await readerJson(['graph', 'kelly-criterion', '--folders', 'sources']);
		expect(scoped.report.results[0]!.inbound).toEqual([]);
		const wide = await readerJson(['graph', 'kelly-criterion', '--folders', 'sources,skill-lab']);
		expect(wide.report.results[0]!.inbound).toEqual([{ path: 'skill-lab/position-sizing.md', source: 'body' }]);
	});
});

describe('text-search', () => {
	it('substring in bodies, grouped by file, with line numbers and two lines of context', async () => {
		const { report } = await readerJson(['text-search', 'discount rate']);
		expect(paths(report)).toEqual(['skill-lab/discount-rate.md', 'skill-lab/scratch.md']);
		const [match] = report.results[0]!.matches ?? [];
		expect(match).toEqual({
			line: 10,
			text: '# The discount rate dominates a DCF',
			before: [],
			after: ['', 'A one-point change in the discount rate moves a [[dcf-valuation]] more than any other input.'],
		});
		expect(report.results[0]!.matches).toHaveLength(2);
	});

	it('frontmatter is not searched', async () => {
		expect((await readerJson(['text-search', 'speculative'])).code).toBe(1);
	});

	it('regex, on the linear-time engine (a lookahead is refused by name)', async () => {
		expect(paths((await readerJson(['text-search', '^Risk at most', '--regex'])).report)).toEqual([
			'skill-lab/position-sizing.md',
		]);
		expect((await readerJson(['text-search', '(a+)+$', '--regex'])).report.status).toBe('success');
		expect((await readerJson(['text-search', 'Risk(?= at)', '--regex'])).report.error).toMatch(/lookahead/);
	});
});

describe('a filter typed as one line (the plugin prompt)', () => {
	it('splits into clauses where a new field<op> starts; values keep their spaces', () => {
		expect(splitWhereText(' domain=investing summary=cash flows  rating>=7 ')).toEqual([
			'domain=investing',
			'summary=cash flows',
			'rating>=7',
		]);
		expect(splitWhereText('last_verified >= 2026-06-01')).toEqual(['last_verified >= 2026-06-01']);
		expect(splitWhereText('')).toEqual([]);
	});
});
