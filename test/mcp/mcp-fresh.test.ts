import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli';
import { EXAMPLE_VAULT } from '../helpers/paths';
import { waitFor } from '../helpers/wait';
import { BIN, call, connect, type Connected } from './client';

/** Paths of a search's results. */
async function found(server: Connected, query: string): Promise<string[]> {
	const out = await call(server.client, 'search', { query, limit: 20 });
	return (out.json.results ?? []).map((r) => r.path as string);
}

/** Waits until a search for `query` finds exactly `paths`, in any order (the watcher has seen the change). */
async function foundSoon(server: Connected, query: string, paths: string[]): Promise<void> {
	const want = JSON.stringify([...paths].sort());
	await waitFor(async () => JSON.stringify((await found(server, query)).sort()) === want, {
		what: `a search for ${query} to find ${JSON.stringify(paths)}`,
	});
}

/** The server's status once no change is pending (every change seen is applied). */
async function settled(server: Connected): Promise<Record<string, unknown>> {
	return waitFor(
		async () => {
			const status = (await call(server.client, 'status', {})).json;
			return status.pending === false ? status : null;
		},
		{ what: 'the server to apply the pending changes' },
	);
}

describe('MCP server stays fresh while running (a temporary copy of examples/vault)', () => {
	let vault: string;
	let outside: string;
	let server: Connected;

	beforeAll(async () => {
		const root = mkdtempSync(join(tmpdir(), 'vq-mcp-'));
		vault = join(root, 'vault');
		outside = join(root, 'outside');
		cpSync(EXAMPLE_VAULT, vault, { recursive: true });
		mkdirSync(outside);
		writeFileSync(join(outside, 'secret.md'), '# Secret\n\nzebracorn outside the vault\n');
		symlinkSync(outside, join(vault, 'escape'));
		server = await connect(vault);
	});

	afterAll(async () => {
		await server.close();
		rmSync(join(vault, '..'), { recursive: true, force: true });
	});

	it('an edit, a new note, a rename and a delete are each seen by a later call, without a restart', async () => {
		writeFileSync(
			join(vault, 'skill-lab', 'dcf-valuation.md'),
			'# DCF valuation\n\nquokkamatic margin of safety\n',
		);
		await foundSoon(server, 'quokkamatic', ['skill-lab/dcf-valuation.md']);

		writeFileSync(join(vault, 'fresh-note.md'), '# Fresh\n\nplatypusine thoughts\n');
		await foundSoon(server, 'platypusine', ['fresh-note.md']);

		renameSync(join(vault, 'fresh-note.md'), join(vault, 'renamed-note.md'));
		await foundSoon(server, 'platypusine', ['renamed-note.md']);

		rmSync(join(vault, 'renamed-note.md'));
		await foundSoon(server, 'platypusine', []);
	});

	it('refreshes update the running indexes incrementally, answering exactly like a fresh read of the vault', async () => {
		const before = (await call(server.client, 'status', {})).json as { incremental_refreshes: number };
		writeFileSync(
			join(vault, 'skill-lab', 'dcf-valuation.md'),
			'# DCF valuation\n\nquokkamatic margin of safety, position sizing\n',
		);
		writeFileSync(
			join(vault, 'sizing-extra.md'),
			'---\ntags: [sizing]\n---\n# Sizing extra\n\nposition sizing and the quokkamatic rule, after [[dcf-valuation]]\n',
		);
		// Both files are seen (the new one is found), then nothing is left pending.
		await foundSoon(server, 'quokkamatic', ['sizing-extra.md', 'skill-lab/dcf-valuation.md']);
		const after = (await settled(server)) as { incremental_refreshes: number };
		expect(after.incremental_refreshes).toBeGreaterThan(before.incremental_refreshes);
		for (const [tool, args, cliArgs] of [
			['search', { query: 'position sizing', limit: 10 }, ['search', 'position sizing', '--limit', '10']],
			['query', { type: 'grep', pattern: 'quokkamatic' }, ['grep', 'quokkamatic']],
			// The link graph is kept per refresh: a new link must show at once.
			['query', { type: 'backlinks', note: 'dcf-valuation' }, ['backlinks', 'dcf-valuation']],
			['pack', { question: 'how do I size a position?' }, ['pack', 'how do I size a position?']],
		] as const) {
			const fresh = JSON.parse((await cli([...cliArgs, '--vault', vault, '--json', '--no-cache'])).stdout) as {
				results?: unknown[];
				pack?: unknown[];
			};
			const live = (await call(server.client, tool, args)).json as { results?: unknown[]; pack?: unknown[] };
			const answer = live.results ?? live.pack;
			expect(answer?.length, tool).toBeGreaterThan(0);
			expect(answer, tool).toEqual(fresh.results ?? fresh.pack);
		}
	});

	it('a burst of 1,000 new notes is batched into a few refreshes, not one per note', async () => {
		const before = (await settled(server)) as { builds: number; notes: number };
		mkdirSync(join(vault, 'burst'));
		for (let i = 0; i < 1000; i++)
			writeFileSync(join(vault, 'burst', `n${i}.md`), `# Burst ${i}\n\nwombatish item ${i}\n`);
		type Counts = { builds: number; changes_seen: number; notes: number };
		const after = await waitFor(
			async () => {
				const status = (await settled(server)) as Counts;
				return status.notes - before.notes >= 1000 ? status : null;
			},
			{ what: 'the server to see the 1,000 new notes' },
		);
		expect(await found(server, 'wombatish')).toHaveLength(20);
		expect(after.notes).toBeGreaterThanOrEqual(1000);
		expect(after.changes_seen).toBeGreaterThanOrEqual(1000);
		expect(after.builds - before.builds).toBeLessThanOrEqual(5);
		expect((await call(server.client, 'note', { note: 'burst/n999' })).json.status).toBe('success');
	});

	it('a symlink leading out of the vault is not followed', async () => {
		expect(await found(server, 'zebracorn')).toEqual([]);
		const out = await call(server.client, 'note', { note: 'escape/secret' });
		expect(out.isError).toBe(true);
	});

	it('concurrent calls during a refresh all answer, each from one consistent index', async () => {
		writeFileSync(join(vault, 'concurrent.md'), '# Concurrent\n\nnarwhalesque\n');
		const answers = await Promise.all(
			Array.from({ length: 12 }, (_, i) =>
				call(server.client, i % 2 === 0 ? 'search' : 'status', i % 2 === 0 ? { query: 'narwhalesque' } : {}),
			),
		);
		for (const answer of answers) expect(answer.isError).toBe(false);
		await foundSoon(server, 'narwhalesque', ['concurrent.md']);
	});
});

describe('MCP server process lifecycle', () => {
	/** Spawn the server raw, wait until its log says it is ready, and collect stdout and the log. */
	async function spawnServer(): Promise<{
		child: ReturnType<typeof spawn>;
		stdout: () => string;
		exited: Promise<number | null>;
	}> {
		const child = spawn(process.execPath, [BIN, 'mcp', '--vault', EXAMPLE_VAULT], {
			stdio: ['pipe', 'pipe', 'pipe'],
		});
		let out = '';
		let log = '';
		child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
		// The whole log, not each chunk: a loaded machine may split the line across two.
		child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
		const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
		await waitFor(() => log.includes('ready:'), { what: 'the server to say it is ready' });
		return { child, stdout: () => out, exited };
	}

	it('exits 0 on stdin EOF, and writes nothing but protocol to stdout', async () => {
		const server = await spawnServer();
		server.child.stdin?.end();
		// A server that does not exit runs into the test's timeout.
		expect(await server.exited).toBe(0);
		expect(server.stdout()).toBe('');
	});

	it('exits 0 on SIGTERM', async () => {
		const server = await spawnServer();
		server.child.kill('SIGTERM');
		expect(await server.exited).toBe(0);
	});
});
