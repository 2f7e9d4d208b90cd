import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/index';
import { cli } from '../helpers/cli';
import { EXAMPLE_VAULT } from '../helpers/paths';

/**
 * Issue 10: `--json` prints exactly one JSON object on stdout for every command, failures
 * included, so an agent's `JSON.parse(stdout)` never crashes. Each command is run with
 * arguments that work, then broken one way at a time.
 */

/** Arguments each command accepts on examples/vault (a new command must add its line here). */
const WORKING: Record<string, string[]> = {
	tag: ['copilot'],
	prop: ['status', 'open'],
	backlinks: ['conventions'],
	links: ['Home'],
	grep: ['FFIEC'],
	search: ['copilot'],
	lookup: ['dcf-valuation'],
	filter: ['--where', 'type=claim'],
	graph: ['dcf-valuation'],
	'text-search': ['discount'],
	pack: ['copilot data retention'],
	note: ['Home'],
	status: [],
	index: ['--status'],
	mcp: [],
	server: ['--status'],
	config: [],
	schema: ['draft'],
	base: ['skills.base'],
};

/** Each command's way to miss its required argument (commands without one are left out). */
const MISSING: Record<string, string[]> = {
	tag: [],
	prop: [],
	backlinks: [],
	links: [],
	grep: [],
	search: [],
	lookup: [],
	filter: [],
	graph: [],
	'text-search': [],
	pack: [],
	note: [],
	schema: [],
};

/** Each command's numeric flag, to feed a hexadecimal number. */
const NUMBER_FLAG: Record<string, string | null> = {
	pack: '--budget',
	lookup: '--excerpt-chars',
	note: '--from',
	status: null,
	index: null,
	server: '--idle-minutes',
	mcp: '--max-bytes',
	config: null,
	schema: null,
};

/** Run with --json and check the contract: exit 2, one parsable object, status failed with an error. */
async function expectJsonFailure(args: string[], why: string): Promise<{ status: string; error: string }> {
	const run = await cli([...args, '--vault', EXAMPLE_VAULT, '--json']);
	expect(run.code, `${why}: ${args.join(' ')}`).toBe(2);
	let parsed: unknown;
	expect(
		() => {
			parsed = JSON.parse(run.stdout);
		},
		`${why}: stdout is one JSON object: ${run.stdout.slice(0, 200)}`,
	).not.toThrow();
	expect(parsed, why).toMatchObject({ status: 'failed', error: expect.any(String) as unknown });
	expect(run.stderr, `${why}: the reason is on stderr too`).not.toBe('');
	return parsed as { status: string; error: string };
}

describe('--json on failure', () => {
	it('covers every command the CLI has', () => {
		const missing = COMMANDS.map((c) => c.name).filter((name) => !Object.hasOwn(WORKING, name));
		expect(missing, 'add working arguments for these commands to WORKING in this test').toEqual([]);
	});

	for (const command of COMMANDS) {
		const name = command.name;
		it(`${name}: a bad vault, an unknown flag, a bad number, an empty or repeated value all print one failure object`, async () => {
			const working = WORKING[name] ?? [];
			const bad = await cli([name, ...working, '--vault', join(EXAMPLE_VAULT, 'no-such-folder'), '--json']);
			expect(bad.code).toBe(2);
			expect(JSON.parse(bad.stdout)).toMatchObject({ status: 'failed' });
			expect((JSON.parse(bad.stdout) as { error: string }).error).toContain('no-such-folder');
			expect((await expectJsonFailure([name, ...working, '--no-such-flag'], 'unknown flag')).error).toMatch(
				/unknown option "--no-such-flag"/,
			);
			const numberFlag = Object.hasOwn(NUMBER_FLAG, name) ? NUMBER_FLAG[name] : '--limit';
			if (numberFlag !== null)
				expect(
					(await expectJsonFailure([name, ...working, numberFlag!, '0x10'], 'hexadecimal number')).error,
				).toMatch(/written in digits, got "0x10"/);
			expect((await expectJsonFailure([name, ...working, '--vault='], 'empty value')).error).toMatch(
				/--vault needs a value.*empty/,
			);
			expect(
				(await expectJsonFailure([name, ...working, '--vault', EXAMPLE_VAULT], 'repeated flag')).error,
			).toMatch(/--vault was given twice/);
			if (Object.hasOwn(MISSING, name))
				expect((await expectJsonFailure([name, ...MISSING[name]!], 'missing argument')).error).toMatch(
					/missing/,
				);
		});
	}

	it('an invalid regex is one failure object for grep, text-search and search', async () => {
		expect((await expectJsonFailure(['grep', '(', '--regex'], 'grep regex')).error).toMatch(
			/invalid regular expression/,
		);
		expect((await expectJsonFailure(['text-search', '(', '--regex'], 'text-search regex')).error).toMatch(
			/invalid regular expression/,
		);
		expect((await expectJsonFailure(['search', '/(/'], 'search regex')).error).toMatch(/regex|regular expression/i);
	});

	it('an unknown command and an option before the command answer in JSON too', async () => {
		for (const argv of [
			['tags', 'x', '--json'],
			['--json', 'tag', 'x'],
		]) {
			const run = await cli(argv);
			expect(run.code).toBe(2);
			expect(JSON.parse(run.stdout)).toMatchObject({ status: 'failed', command: null });
		}
	});

	it('a query failure (unknown note) is still exactly one object: the envelope', async () => {
		const run = await cli(['backlinks', 'no-such-note-anywhere', '--vault', EXAMPLE_VAULT, '--json']);
		expect(run.code).toBe(2);
		expect(JSON.parse(run.stdout)).toMatchObject({ status: 'failed', results: [] });
	});
});
