import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs, parseInteger } from '../../src/cli/args';
import { cli } from '../helpers/cli';
import { EXAMPLE_VAULT, REPO } from '../helpers/paths';

/** Issue 15, "CLI contract": option parsing, numbers, output errors and escaping, each a regression test. */

const V = ['--vault', EXAMPLE_VAULT];
const BIN = join(REPO, 'dist', 'cli.mjs');

describe('option parsing', () => {
	it('-- ends the options: later words are query words, and a word spelled like an option gets a note', async () => {
		const args = parseArgs(['--json', '--', '-tag:draft', '--vault', 'V'], {
			json: { kind: 'boolean', help: '' },
			vault: { kind: 'string', help: '' },
		});
		expect(args.positionals).toEqual(['-tag:draft', '--vault', 'V']);
		expect(args.flags).toEqual({ json: true });
		const run = await cli(['grep', ...V, '--', '--json']);
		expect(run.code).toBe(1);
		expect(run.stdout).toMatch(/^0 notes match/);
		expect(run.stderr).toMatch(/--json after -- is a query word, not an option; put options before --/);
	});

	it('a query that starts with "-" goes after --, with the options before it', async () => {
		const run = await cli(['search', ...V, '--json', '--', '-tag:draft copilot']);
		expect(run.code).toBe(0);
		expect(JSON.parse(run.stdout)).toMatchObject({ query: { raw: '-tag:draft copilot' } });
	});

	it('a leading-dash query before -- is refused with the hint to use --', async () => {
		const run = await cli(['search', '-tag:draft copilot', ...V]);
		expect(run.code).toBe(2);
		expect(run.stderr).toContain(
			'put them after --, options before it: vault-query <command> [options] -- "-tag:draft copilot"',
		);
		expect((await cli(['grep', '-x', ...V])).stderr).toMatch(/"-x" is not an option/);
	});

	it('empty values are errors: --vault=, --vault "", --folders "", an empty argument', async () => {
		for (const argv of [
			['tag', 'x', '--vault='],
			['tag', 'x', '--vault', ''],
			['tag', 'x', ...V, '--folders', ' '],
			['tag', 'x', ...V, '--folders', ','],
			['tag', '', ...V],
			['pack', '  ', ...V],
		]) {
			const run = await cli(argv);
			expect(run.code, JSON.stringify(argv)).toBe(2);
			expect(run.stderr, JSON.stringify(argv)).toMatch(/empty|needs at least one value|missing/);
		}
	});

	it('a single-valued flag given twice is an error, aliases included; list flags add up', async () => {
		expect((await cli(['tag', 'x', ...V, '--limit', '3', '--limit', '4'])).stderr).toMatch(
			/--limit was given twice/,
		);
		expect((await cli(['tag', 'x', ...V, '--limit', '3', '--max-results', '4'])).stderr).toMatch(
			/--max-results was given twice/,
		);
		expect((await cli(['tag', 'x', ...V, ...V])).stderr).toMatch(/--vault was given twice/);
		expect(
			parseArgs(['--folders', 'a', '--folders', 'b,c'], { folders: { kind: 'list', help: '' } }).flags.folders,
		).toEqual(['a', 'b', 'c']);
	});

	it('a value that is the next option is refused unless written with =', async () => {
		expect((await cli(['tag', 'x', '--vault', '--json'])).stderr).toMatch(
			/--vault needs a value \(PATH\), got the option "--json"/,
		);
		expect(parseArgs(['--task=--draft'], { task: { kind: 'string', help: '' } }).flags.task).toBe('--draft');
	});

	it('a misspelt option names the nearest one', async () => {
		expect((await cli(['tag', 'x', ...V, '--limt', '3'])).stderr).toMatch(
			/unknown option "--limt"; did you mean --limit\?/,
		);
	});
});

describe('numbers', () => {
	it('only plain decimal integers in range', () => {
		for (const bad of [
			'0x10',
			' 3 ',
			'3 ',
			'1e308',
			'1e3',
			'-1',
			'+3',
			'3.0',
			'Infinity',
			'',
			'0',
			'99999999999999999',
		]) {
			expect(() => parseInteger(bad, '--limit', [1, 1000]), JSON.stringify(bad)).toThrow(
				/--limit must be a whole number from 1 to 1000/,
			);
		}
		expect(parseInteger('10', '--limit', [1, 1000])).toBe(10);
		expect(parseInteger('007', '--limit', [1, 1000])).toBe(7);
	});

	it('--limit, --max-results, --budget, --excerpt-chars and --max-staleness-days refuse 0x10, " 3 " and 1e308', async () => {
		const calls: string[][] = [
			['tag', 'copilot', '--limit'],
			['grep', 'x', '--max-results'],
			['search', 'x', '--limit'],
			['pack', 'x', '--budget'],
			['lookup', 'x', '--excerpt-chars'],
			['filter', '--where', 'type=claim', '--max-staleness-days'],
			['text-search', 'x', '--limit'],
		];
		for (const call of calls) {
			for (const value of ['0x10', ' 3 ', '1e308']) {
				const run = await cli([...call, value, ...V]);
				expect(run.code, `${call.join(' ')} ${value}`).toBe(2);
				expect(run.stderr).toMatch(/must be a whole number from \d+ to \d+/);
			}
		}
		expect((await cli(['lookup', 'dcf-valuation', '--excerpt-chars', '1', ...V])).code).toBe(0);
	});

	it('--where numbers are plain decimals: 0x10, 1e3 and Infinity are refused, 7 and 4.5 work', async () => {
		for (const value of ['0x10', '1e3', 'Infinity', '7e0']) {
			const run = await cli(['filter', '--where', `rating>=${value}`, ...V]);
			expect(run.code, value).toBe(2);
			expect(run.stderr).toMatch(/is not a number written in plain decimal/);
		}
		expect((await cli(['filter', '--where', 'rating>=7', ...V])).code).toBe(0);
		expect((await cli(['filter', '--where', 'rating>=4.5', ...V])).code).toBe(0);
	});
});

describe('validated before the vault is read', () => {
	const gone = ['--vault', join(EXAMPLE_VAULT, 'no-such-folder')];

	it('a bad regex, --where or number is reported instead of the missing vault', async () => {
		expect((await cli(['grep', '(', '--regex', ...gone])).stderr).toMatch(/invalid regular expression/);
		expect((await cli(['text-search', '(', '--regex', ...gone])).stderr).toMatch(/invalid regular expression/);
		expect((await cli(['search', '/(/', ...gone])).stderr).toMatch(/regex|regular expression/i);
		expect((await cli(['filter', '--where', 'no operator', ...gone])).stderr).toMatch(/is not a predicate/);
		expect((await cli(['tag', 'x', '--limit', 'ten', ...gone])).stderr).toMatch(/--limit must be/);
		for (const argv of [
			['grep', '(', '--regex', ...gone],
			['filter', '--where', 'x', ...gone],
		])
			expect((await cli(argv)).stderr).not.toContain('no-such-folder');
	});
});

describe('output errors (the built bin)', () => {
	it('a full disk is exit 2 with one line on stderr, no stack trace', () => {
		expect(existsSync(BIN), 'dist/cli.mjs is built by npm run build').toBe(true);
		if (!existsSync('/dev/full')) return;
		const full = openSync('/dev/full', 'w');
		try {
			const run = spawnSync(process.execPath, [BIN, 'grep', 'the', '--vault', EXAMPLE_VAULT], {
				stdio: ['ignore', full, 'pipe'],
				encoding: 'utf8',
			});
			expect(run.status).toBe(2);
			expect(run.stderr.trim().split('\n')).toHaveLength(1);
			expect(run.stderr).toMatch(/^vault-query: could not write the output: ENOSPC/);
		} finally {
			closeSync(full);
		}
	});

	it('a reader that closes the pipe early (| head) gets no error message', async () => {
		// More output than a pipe buffer holds, so the CLI is still writing when the reader leaves.
		const vault = mkdtempSync(join(tmpdir(), 'vq-pipe-'));
		for (let n = 0; n < 100; n++) writeFileSync(join(vault, `note ${n}.md`), 'the line that matches\n'.repeat(40));
		const child = spawn(process.execPath, [BIN, 'grep', 'the', '--limit', '4000', '--vault', vault], {
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stderr = '';
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		child.stdout.once('data', () => child.stdout.destroy());
		const code = await new Promise<number | null>((done) => child.on('close', done));
		expect(stderr).toBe('');
		expect(code).not.toBe(2);
	});
});

/** A raw control character a terminal would act on (tab and newline are layout). */
const RAW_CONTROL = {
	test: (c: string): boolean => {
		const code = c.charCodeAt(0);
		return (
			(code < 0x20 && c !== '\t' && c !== '\n') ||
			(code >= 0x7f && code <= 0x9f) ||
			(code >= 0x202a && code <= 0x202e)
		);
	},
};

describe('control characters in vault text are escaped in text output', () => {
	const vault = mkdtempSync(join(tmpdir(), 'vq-escape-'));
	const evil = 'evil\n1 note matched\u001b[2J\u202e.md';
	writeFileSync(
		join(vault, evil),
		'---\ntags: [x]\n---\n# Title \u001b]0;pwned\u0007\n\nneedle [[Other]] line\u001b[31m red\n',
	);
	writeFileSync(join(vault, 'Other.md'), '# Other\n\nlinks to [[esc\u001b[2Jname]] maybe\n');
	mkdirSync(join(vault, '_meta'));
	writeFileSync(join(vault, '_meta', 'frontmatter-schema.md'), '```yaml\nfields:\n  tags: { type: list }\n```\n');

	it('tag, grep, backlinks, links, search, text-search and --report print no raw control character', async () => {
		const calls = [
			['tag', 'x'],
			['grep', 'needle'],
			['backlinks', 'Other'],
			['links', 'Other'],
			['search', 'needle'],
			['text-search', 'needle', '--folders', 'all'],
			['text-search', 'needle', '--folders', 'all', '--report'],
			['pack', 'needle'],
		];
		for (const call of calls) {
			const run = await cli([...call, '--vault', vault]);
			expect(run.code, call.join(' ')).toBe(0);
			expect(
				[...run.stdout].filter((c) => RAW_CONTROL.test(c)),
				call.join(' '),
			).toEqual([]);
			expect(
				run.stdout.split('\n'),
				`${call.join(' ')}: the file name does not start a line of its own`,
			).not.toContain('1 note matched\\e[2J\\u202e.md');
			expect(run.stdout, call.join(' ')).toContain(
				call[0] === 'links' ? 'esc\\e[2Jname' : 'evil\\n1 note matched\\e[2J\\u202e',
			);
		}
	});

	it('JSON keeps the exact names (JSON escapes them itself)', async () => {
		const run = await cli(['tag', 'x', '--vault', vault, '--json']);
		expect((JSON.parse(run.stdout) as { results: { path: string }[] }).results[0]!.path).toBe(evil);
	});
});

describe('one JSON contract: every --json object has a status, the status commands included', () => {
	/** The parsed stdout of a `--json` call, which must be exactly one object. */
	async function jsonOf(argv: string[]): Promise<Record<string, unknown>> {
		const run = await cli([...argv, '--json']);
		expect(run.code, argv.join(' ')).not.toBe(2);
		const parsed = JSON.parse(run.stdout) as unknown;
		expect(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed), argv.join(' ')).toBe(true);
		return parsed as Record<string, unknown>;
	}

	it('status, config, index (build, --status, --clear) and server (--status, --stop) answer with status success', async () => {
		const calls = [
			['status'],
			['config'],
			['index'],
			['index', '--status'],
			['server', '--status'],
			['server', '--stop'],
			['index', '--clear'],
			['index', '--status'],
			['schema', 'draft'],
			['base', 'skills.base'],
		];
		for (const call of calls) expect((await jsonOf([...call, ...V])).status, call.join(' ')).toBe('success');
	});

	it('a malformed plugin data.json is a limitation in every JSON answer, and config says "not used", never "read"', async () => {
		const vault = mkdtempSync(join(tmpdir(), 'vq-bad-settings-'));
		writeFileSync(join(vault, 'a.md'), '---\ntags: [x]\n---\nbody\n');
		mkdirSync(join(vault, '.obsidian', 'plugins', 'vault-query'), { recursive: true });
		writeFileSync(join(vault, '.obsidian', 'plugins', 'vault-query', 'data.json'), '{"profile": ');
		for (const call of [['tag', 'x'], ['search', 'body'], ['status'], ['config']]) {
			const answer = await jsonOf([...call, '--vault', vault]);
			expect(answer.limitations, call.join(' ')).toEqual(
				expect.arrayContaining([expect.stringMatching(/^Settings: .*data\.json not used: /)]),
			);
		}
		const config = await jsonOf(['config', '--vault', vault]);
		expect(config.settings_file).toMatchObject({ found: true, used: false });
		expect((config.settings_file as { problem: unknown }).problem).toMatch(/JSON/);
		const text = await cli(['config', '--vault', vault]);
		expect(text.stdout).toMatch(/^Settings file: \.obsidian\/plugins\/vault-query\/data\.json \(not used: .+\)$/m);
		expect(text.stdout).not.toMatch(/data\.json \(read\)/);
	});

	it('a readable data.json adds no limitation and config says "read"', async () => {
		const config = await jsonOf(['config', ...V]);
		expect(config.settings_file).toMatchObject({ found: true, used: true, problem: null });
		expect(config.limitations ?? []).toEqual([]);
		expect((await cli(['config', ...V])).stdout).toMatch(/data\.json \(read\)/);
	});
});
