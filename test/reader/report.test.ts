import { describe, expect, it } from 'vitest';
import { renderReport, type ReaderReport } from '../../src/core/reader/index';
import { flow } from '../../src/core/reader/report-text';
import { cli } from '../helpers/cli';
import { EXAMPLE_VAULT } from '../helpers/paths';

/** The report with the machine-specific parts (vault path, the schema note's mtime) replaced. */
async function report(args: string[]): Promise<{ code: number; text: string }> {
	const run = await cli([...args, '--vault', EXAMPLE_VAULT, '--report']);
	return {
		code: run.code,
		text: run.stdout
			.replaceAll(EXAMPLE_VAULT, '<vault>')
			.replace(/\(modified \d{4}-\d{2}-\d{2}\)/, '(modified <date>)'),
	};
}

describe("the retrieval report in the seed's layout", () => {
	it('filter with every post-filter', async () => {
		const { code, text } = await report([
			'filter',
			'--where',
			'type=claim',
			'--where',
			'domain=investing',
			'--min-confidence',
			'speculative',
			'--max-staleness-days',
			'60',
			'--today',
			'2026-06-30',
		]);
		expect(code).toBe(0);
		expect(text).toBe(`RETRIEVAL REPORT — vault-reader
────────────────────────────────
Query: {operation: filter, parameters: {where: [type=claim, domain=investing], folders: default (Notes/, skill-lab/), full_body: false, excerpt_chars: 300, max_results: 25, include_archived: false, min_confidence: speculative, max_staleness_days: 60, today: 2026-06-30}}
Searched: 8 markdown files across 1 folder [skill-lab/]
Schema validated against: <vault>/_meta/frontmatter-schema.md (modified <date>)
Matched: 2 notes (after filters)

Results:
  1. <vault>/skill-lab/discount-rate.md
     - title: discount-rate
     - frontmatter: {type: claim, domain: investing, confidence: likely, last_verified: 2026-05-01}
     - excerpt: "A one-point change in the discount rate moves a [[dcf-valuation]] more than any other input."
     - inbound links: 1
     - outbound links: 1
  2. <vault>/skill-lab/momentum-factor.md
     - title: momentum-factor
     - frontmatter: {type: claim, domain: investing, confidence: speculative, last_verified: ""}
     - excerpt: "Stocks that rose over the last year tend to keep rising for a few more months. Never checked against our own data."
     - inbound links: 0
     - outbound links: 0

Skipped (no valid frontmatter):
  - <vault>/skill-lab/scratch.md (no frontmatter)

Limitations:
  - Default folder Notes/ (notes/ differs only in case) not in this vault
  - Folders not searched: (vault root), _meta/, _views/, archive/, decisions/, digests/, events/, facts/, insights/, notes/, people/, projects/, research/, sources/
  - Filters applied: where type=claim, domain=investing; include_archived=false (1 note with status: archived excluded); min_confidence=speculative (0 notes below it or without confidence excluded); max_staleness_days=60 (today 2026-06-30: last_verified on or after 2026-05-01; 0 notes excluded; never-verified notes pass)

Status: success`);
	});

	it('graph lists the links with their resolution; text-search lists the matching lines', async () => {
		const graph = await report(['graph', 'position-sizing', '--folders', 'skill-lab,sources']);
		expect(graph.text).toContain(`  1. <vault>/skill-lab/position-sizing.md
     - frontmatter: {type: skill, domain: investing, status: active, confidence: likely, last_verified: 2026-06-15, tags: [#finance, #risk]}
     - excerpt: "Risk at most one percent of the portfolio on a single idea; see the [[kelly-criterion]] book notes."
     - inbound links: 2 [<vault>/skill-lab/dcf-valuation.md (body), <vault>/sources/position-sizing.md (body)]
     - outbound links: 1 [kelly-criterion → <vault>/sources/kelly-criterion.md (vault)]`);
		const search = await report(['text-search', 'cost of capital']);
		expect(search.text)
			.toContain(`     - excerpt: "Loose thoughts with no frontmatter yet: compare the discount rate with the cost of capital."
     - matches:
         1: Loose thoughts with no frontmatter yet: compare the discount rate with the cost of capital.
         2- 
     - inbound links: 0`);
	});

	it('filter shows every property with --verbose; "did you mean" is said once', async () => {
		const all = await report(['filter', '--where', 'rating>=9', '--verbose']);
		expect(all.text).toContain(
			'     - frontmatter: {type: skill, domain: investing, status: active, confidence: confirmed, maturity: evergreen, last_verified: 2026-06-20, tags: [#valuation, #finance], rating: 9, summary: Value a business from its discounted free cash flows}',
		);
		const failed = await report(['filter', '--where', 'domain=investng']);
		expect(failed.text.match(/did you mean/g)).toHaveLength(1);
	});

	it('a failed call still prints the layout, with the error and Status: failed', async () => {
		const { code, text } = await report(['filter', '--where', 'domain=investng']);
		expect(code).toBe(2);
		expect(text.split('\n').slice(3)).toEqual([
			'Searched: 0 markdown files (nothing searched)',
			'Schema validated against: <vault>/_meta/frontmatter-schema.md (modified <date>)',
			'Matched: 0 notes (after filters)',
			'',
			'Results:',
			'  (none)',
			'',
			'Skipped (no valid frontmatter):',
			'  (none)',
			'',
			'Limitations:',
			'  (none)',
			'',
			'Error: where: "investng" is not a valid domain; the schema allows: investing, engineering, health, meta; did you mean "investing"?',
			'Status: failed',
		]);
	});

	it('renders any report object the same way (the plugin uses this too)', () => {
		const minimal: ReaderReport = {
			status: 'success',
			operation: 'lookup',
			vault_path: '/v',
			query: { operation: 'lookup', slug: 'x' },
			schema: { path: '/v/s.md', modified: null },
			searched: { files: 3, folders: ['(whole vault)'] },
			matched: 0,
			results: [],
			skipped: [],
			limitations: [],
		};
		expect(renderReport(minimal).split('\n').slice(2, 5)).toEqual([
			'Query: {operation: lookup, parameters: {slug: x}}',
			'Searched: 3 markdown files across the whole vault',
			'Schema validated against: /v/s.md (modified unknown)',
		]);
	});
});

describe('frontmatter values in a report', () => {
	it('a list of links reads as links, not as a triple bracket', () => {
		expect(flow({ categories: ['[[Movies]]'], genre: ['[[Sci-fi]]', '[[Drama]]'], tags: ['a', 'b'] })).toBe(
			'{categories: [ [[Movies]] ], genre: [ [[Sci-fi]], [[Drama]] ], tags: [a, b]}',
		);
	});
});
