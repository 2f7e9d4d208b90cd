import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/args';
import { cli } from '../helpers/cli';
import { hashTree } from '../helpers/hash';
import { EXAMPLE_VAULT, KEPANO_VAULT, REPO } from '../helpers/paths';
import { itShared } from '../helpers/shared';

const V = ['--vault', EXAMPLE_VAULT];

describe('reader CLI', () => {
	it('--where is a multi flag: every use kept whole, commas included', () => {
		const args = parseArgs(['--where', 'a=1,2', '--where=b>=3', '--folders', 'x,y'], {
			where: { kind: 'multi', help: '' },
			folders: { kind: 'list', help: '' },
		});
		expect(args.flags).toEqual({ where: ['a=1,2', 'b>=3'], folders: ['x', 'y'] });
	});

	it('each operation has --help with examples, and is listed', async () => {
		for (const name of ['lookup', 'filter', 'graph', 'text-search']) {
			const run = await cli([name, '--help']);
			expect(run.code).toBe(0);
			expect(run.stdout).toContain(`vault-query ${name}`);
			expect(run.stdout).toContain('Examples:');
		}
		expect((await cli(['--help'])).stdout).toMatch(/text-search/);
	});

	it('usage errors exit 2: missing --where or slug, stray arguments, --json with --report, a bad staleness', async () => {
		const cases: [string[], RegExp][] = [
			[['filter', ...V], /missing --where/],
			[['filter', 'status=active', ...V], /unexpected argument "status=active" \(predicates go in --where\)/],
			[['lookup', ...V], /missing <slug>/],
			[['graph', 'a', 'b', ...V], /unexpected argument "b"/],
			[['lookup', 'x', '--json', '--report', ...V], /--json and --report/],
			[
				['filter', '--where', 'type=claim', '--max-staleness-days', 'soon', ...V],
				/--max-staleness-days must be a whole number from 0 to 1000000/,
			],
			[
				['filter', '--where', 'type=claim', '--min-confidnce', 'likely', ...V],
				/unknown option "--min-confidnce"/,
			],
		];
		for (const [args, message] of cases) {
			const run = await cli(args);
			expect(run.code, args.join(' ')).toBe(2);
			expect(run.stderr).toMatch(message);
		}
	});

	it('the default output is the short listing, like the other commands', async () => {
		const run = await cli(['filter', '--where', 'rating>=9', ...V]);
		expect(run.code).toBe(0);
		expect(run.stdout).toMatch(
			/^1 note matches \(searched 8 notes\)\n\nskill-lab\/dcf-valuation\.md\n {2}dcf-valuation/,
		);
		const graph = await cli(['graph', 'dcf-valuation', '--known-skill-refs', 'excel-modeling', ...V]);
		expect(graph.stdout).toContain('  → [[excel-modeling]]  [skill-library-ref]');
		expect(graph.stdout).toContain('  ← skill-lab/discount-rate.md  [body]');
	});

	it('--schema inside the vault is read as a vault note; a missing one fails closed naming it', async () => {
		const inside = await cli([
			'filter',
			'--where',
			'type=claim',
			'--schema',
			join(EXAMPLE_VAULT, '_meta/frontmatter-schema.md'),
			...V,
			'--json',
		]);
		expect(inside.code).toBe(0);
		const missing = await cli(
			['filter', '--where', 'type=claim', '--schema', 'no-such-schema.md', ...V, '--json'],
			REPO,
		);
		expect(missing.code).toBe(2);
		expect(JSON.parse(missing.stdout)).toMatchObject({
			status: 'failed',
			error: expect.stringContaining(`schema: ${join(REPO, 'no-such-schema.md')} not found. `) as unknown,
		});
	});
});

const READ_CALLS = [
	['lookup', 'dcf-valuation', '--full-body'],
	['filter', '--where', 'rating>=7', '--folders', 'all', '--include-archived', '--max-staleness-days', '30'],
	['graph', 'dcf-valuation', '--known-skill-refs', 'excel-modeling'],
	['text-search', 'the', '--folders', 'all'],
	['text-search', '[', '--regex'],
];

/** Runs every reader operation on `vault` and says whether its bytes changed. */
async function readsLeaveUnchanged(vault: string, extra: string[]): Promise<void> {
	const before = hashTree(vault);
	for (const args of READ_CALLS) await cli([...args, '--vault', vault, ...extra]);
	expect(hashTree(vault)).toEqual(before);
}

describe('read-only', () => {
	it('every operation leaves the example vault byte-identical', async () => {
		await readsLeaveUnchanged(EXAMPLE_VAULT, ['--json']);
	});
	itShared('every operation leaves kepano-obsidian byte-identical', async () => {
		await readsLeaveUnchanged(KEPANO_VAULT, [
			'--schema',
			join(REPO, 'test/reader/fixtures/kepano-schema.md'),
			'--report',
		]);
	});
});
