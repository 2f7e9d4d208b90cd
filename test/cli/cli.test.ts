import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli';
import { hashTree } from '../helpers/hash';
import { EXAMPLE_VAULT, KEPANO_VAULT, REPO } from '../helpers/paths';
import { itShared } from '../helpers/shared';

const V = ['--vault', EXAMPLE_VAULT];

describe('CLI contract', () => {
	it('exit 0 with results, 1 when nothing matched, 2 when it could not search', async () => {
		expect((await cli(['tag', 'copilot', ...V])).code).toBe(0);
		expect((await cli(['tag', 'no-such-tag', ...V])).code).toBe(1);
		const bad = await cli(['tag', 'copilot', '--vault', join(EXAMPLE_VAULT, 'missing')]);
		expect(bad.code).toBe(2);
		expect(bad.stderr).toContain(join(EXAMPLE_VAULT, 'missing'));
	});

	it('a file given as the vault is refused with its path', async () => {
		const file = join(EXAMPLE_VAULT, 'Home.md');
		const run = await cli(['grep', 'x', '--vault', file]);
		expect(run.code).toBe(2);
		expect(run.stderr).toContain(file);
	});

	it('unknown flags and commands are errors, never ignored', async () => {
		const flag = await cli(['tag', 'copilot', '--limt', '3', ...V]);
		expect(flag.code).toBe(2);
		expect(flag.stderr).toMatch(/unknown option "--limt"/);
		const short = await cli(['tag', 'copilot', '-x', ...V]);
		expect(short.code).toBe(2);
		const command = await cli(['backlink', 'x', ...V]);
		expect(command.code).toBe(2);
		expect(command.stderr).toMatch(/did you mean "backlinks"/);
	});

	it('bad values and missing arguments are usage errors', async () => {
		expect((await cli(['tag', 'copilot', '--limit', '0', ...V])).stderr).toMatch(
			/--limit must be a whole number from 1 to 100000/,
		);
		expect((await cli(['backlinks', ...V])).stderr).toMatch(/missing <note>/);
		expect((await cli(['grep', 'a', 'b', ...V])).stderr).toMatch(/unexpected argument "b"/);
	});

	it('every command has --help with examples', async () => {
		for (const name of ['tag', 'prop', 'backlinks', 'links', 'grep']) {
			const run = await cli([name, '--help']);
			expect(run.code).toBe(0);
			expect(run.stdout).toContain(`vault-query ${name}`);
			expect(run.stdout).toContain('Examples:');
		}
		expect((await cli(['--help'])).stdout).toMatch(/Commands:[\s\S]*backlinks/);
	});

	it('the vault defaults to the working directory', async () => {
		const run = await cli(['tag', 'copilot'], EXAMPLE_VAULT);
		expect(run.code).toBe(0);
		expect(run.stdout).toContain('facts/copilot-data-retention.md');
	});

	it('the text listing is readable: paths, titles, sources and context', async () => {
		const backlinks = await cli(['backlinks', 'conventions', ...V]);
		expect(backlinks.stdout).toMatch(/^\d+ notes link to conventions\.md \(searched \d+ notes\)/);
		expect(backlinks.stdout).toContain('decisions/2026-06-20-adopt-obsidian-and-ob1-patterns.md  [both]');
		const grep = await cli(['grep', 'FFIEC', ...V]);
		expect(grep.stdout).toContain('  14: Regulators expect vendor risk');
		const links = await cli(['links', 'digests/2026-w25', ...V]);
		expect(links.stdout.split('\n')[0]).toBe('Links from digests/2026-w25.md: 4 links');
		expect(links.stdout).toContain('[[budget-2027]] → (unresolved)  [body]');
		expect(links.stdout).toContain('[[attachments/pipeline.png]] → attachments/pipeline.png  [body]');
	});

	it('grep stops past its limit and says more notes match; a higher limit lists them all, the first ones the same', async () => {
		const all = JSON.parse((await cli(['grep', 'the', ...V, '--limit', '1000', '--json'])).stdout) as {
			matched: number;
			more?: boolean;
			results: { path: string }[];
		};
		expect(all.more).toBeUndefined();
		expect(all.matched).toBeGreaterThan(3);
		const first = await cli(['grep', 'the', ...V, '--limit', '3']);
		expect(first.stdout.split('\n')[0]).toBe('3+ notes match (stopped at the limit; more notes match)');
		const json = JSON.parse((await cli(['grep', 'the', ...V, '--limit', '3', '--json'])).stdout) as typeof all;
		expect(json).toMatchObject({ matched: 3, more: true });
		expect(json.results.map((r) => r.path)).toEqual(all.results.slice(0, 3).map((r) => r.path));
	});
});

describe('the built bin', () => {
	const bin = join(REPO, 'dist', 'cli.mjs');

	it('prints the contract for `backlinks conventions --json` (run `npm run build` first)', () => {
		expect(existsSync(bin), 'dist/cli.mjs is built by npm run build').toBe(true);
		const out = execFileSync(
			process.execPath,
			[bin, 'backlinks', 'conventions', '--vault', EXAMPLE_VAULT, '--json'],
			{ encoding: 'utf8' },
		);
		const json = JSON.parse(out) as { status: string; results: { path: string; source: string }[] };
		expect(json.status).toBe('partial');
		expect(json.results.length).toBeGreaterThanOrEqual(3);
	});

	it('sets the exit code and writes errors to stderr', () => {
		const run = spawnSync(process.execPath, [bin, 'grep', '(', '--regex', '--vault', EXAMPLE_VAULT], {
			encoding: 'utf8',
		});
		expect(run.status).toBe(2);
		expect(run.stdout).toBe('');
		expect(run.stderr).toMatch(/invalid regular expression/);
	});
});

/** Runs every structural command on `vault` and checks its bytes did not change. */
async function commandsLeaveUnchanged(vault: string): Promise<void> {
	const before = hashTree(vault);
	for (const args of [
		['tag', 'x'],
		['prop', 'status'],
		['backlinks', 'conventions'],
		['links', 'Home'],
		['grep', 'the'],
		['grep', '[', '--regex'],
	]) {
		await cli([...args, '--vault', vault, '--json']);
	}
	expect(hashTree(vault)).toEqual(before);
}

describe('read-only', () => {
	it('running every command leaves the example vault byte-identical', async () => {
		await commandsLeaveUnchanged(EXAMPLE_VAULT);
	});
	itShared('running every command leaves kepano-obsidian byte-identical', async () => {
		await commandsLeaveUnchanged(KEPANO_VAULT);
	});

	it('a vault with a binary note, a huge note and bad YAML is still searched, and the report says why', async () => {
		const vault = mkdtempSync(join(tmpdir(), 'vq-bad-'));
		writeFileSync(join(vault, 'good.md'), '# Good\n\nneedle here\n');
		writeFileSync(join(vault, 'bad-yaml.md'), '---\ntags: [a\n---\nneedle in a broken note\n');
		writeFileSync(join(vault, 'binary.md'), Buffer.from([0x6e, 0x65, 0x00, 0x01, 0x02, 0x6e]));
		writeFileSync(join(vault, 'huge.md'), `needle ${'x'.repeat(6 * 1024 * 1024)}`);
		const run = await cli(['grep', 'needle', '--vault', vault, '--json']);
		const json = JSON.parse(run.stdout) as {
			status: string;
			results: { path: string }[];
			skipped: { path: string; reason: string }[];
		};
		expect(run.code).toBe(0);
		expect(json.results.map((r) => r.path).sort()).toEqual(['bad-yaml.md', 'good.md']);
		expect(json.status).toBe('partial');
		const reasons = Object.fromEntries(json.skipped.map((s) => [s.path, s.reason]));
		expect(reasons['binary.md']).toMatch(/binary/);
		expect(reasons['huge.md']).toMatch(/larger than/);
		expect(reasons['bad-yaml.md']).toMatch(/frontmatter not parsed/);
	});
});

describe('no command', () => {
	it('prints the help on stderr and exits 2', async () => {
		const run = await cli([]);
		expect(run.code).toBe(2);
		expect(run.stdout).toBe('');
		expect(run.stderr).toMatch(/Commands:/);
	});
});
