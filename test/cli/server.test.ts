/**
 * The vault's background server (src/cli/server): the built `vault-query` starts one after a
 * call that found none and lets it answer the next calls, byte for byte what a call of its own
 * prints; it is never stale across random edits; and it steps aside — for `--no-server`, another
 * build, changed settings, a moved vault, a stale socket, a second server — without a wrong answer.
 */
import { execFile } from 'node:child_process';
import { spawn } from 'node:child_process';
import {
	cpSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	realpathSync,
	renameSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { askServer, exchange } from '../../src/cli/server/client';
import { readServerPid, writeServerPid } from '../../src/cli/server/pid-file';
import { SERVER_STAMP, socketPathFor } from '../../src/cli/server/protocol';
import { cli } from '../helpers/cli';
import { hashTree } from '../helpers/hash';
import { EXAMPLE_VAULT, REPO } from '../helpers/paths';
import { waitFor } from '../helpers/wait';

const run = promisify(execFile);
const BIN = join(REPO, 'dist', 'cli.mjs');
let cache: string;
let vault: string;
let previousCache: string | undefined;

beforeEach(() => {
	previousCache = process.env.VAULT_QUERY_CACHE_DIR;
	cache = mkdtempSync(join(tmpdir(), 'vq-server-cache-'));
	process.env.VAULT_QUERY_CACHE_DIR = cache;
	vault = join(mkdtempSync(join(tmpdir(), 'vq-server-vault-')), 'vault');
	cpSync(EXAMPLE_VAULT, vault, { recursive: true });
});
afterEach(async () => {
	// Stop whatever server runs for the vault — a successor it handed over to included — until three stops in a row find none.
	let quiet = 0;
	await waitFor(
		async () => {
			const stopped = await cli(['server', '--stop', '--vault', vault]).catch(() => ({ code: 1 }));
			quiet = stopped.code === 0 ? 0 : quiet + 1;
			return quiet >= 3;
		},
		{ what: 'no server of the vault left to stop', pollMs: 200 },
	);
	process.env.VAULT_QUERY_CACHE_DIR = previousCache;
	rmSync(cache, { recursive: true, force: true });
	rmSync(join(vault, '..'), { recursive: true, force: true });
});

/** The environment of a process that may use and start servers, with this test's cache folder. */
function serverEnv(): Record<string, string | undefined> {
	// A server a failed test leaves behind stops after a minute without calls.
	return {
		...process.env,
		VAULT_QUERY_SERVER: 'on',
		VAULT_QUERY_CACHE_DIR: cache,
		VAULT_QUERY_SERVER_IDLE_MINUTES: '1',
	};
}

/** Runs the built CLI as a user would; exit codes 1 and 2 are answers too. */
async function bin(
	args: string[],
	env: Record<string, string | undefined> = serverEnv(),
): Promise<{ code: number; stdout: string; stderr: string }> {
	try {
		const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env, encoding: 'utf8' });
		return { code: 0, stdout, stderr };
	} catch (error) {
		const e = error as { code: number; stdout: string; stderr: string };
		return { code: e.code, stdout: e.stdout, stderr: e.stderr };
	}
}

/** Waits until the vault's server answers a status request: ready, and not handing over. */
async function serverUp(): Promise<void> {
	const socket = socketPathFor(realpathOf(vault), { VAULT_QUERY_CACHE_DIR: cache });
	expect(socket).not.toBeNull();
	await waitFor(
		async () => {
			const { reply } = await exchange(socket!, { stamp: SERVER_STAMP, control: 'status' }, 2000);
			return reply !== null && 'status' in reply && reply.status.ready && !reply.status.handsOver;
		},
		{ what: 'the background server to come up', pollMs: 100 },
	);
}

/** The real path (tmpdir may be a symlink on macOS). */
function realpathOf(path: string): string {
	return realpathSync.native(path);
}

/** Starts a server in this process (the `server` command, as the spawned one runs it); resolves the stop. */
async function serverInProcess(): Promise<{ stopped: Promise<unknown>; stderr: string[] }> {
	const stderr: string[] = [];
	const { runCli } = await import('../../src/cli/run');
	const stopped = runCli(['server', '--vault', vault, '--idle-minutes', '5'], {
		stdout: () => undefined,
		stderr: (t) => stderr.push(t),
		cwd: REPO,
	});
	await serverUp();
	return { stopped, stderr };
}

/** What the in-process server answers for `argv`; a declined call fails the test with the server's reason. */
async function served(argv: string[], mayDecline = false): Promise<{ code: number; stdout: string } | null> {
	const socket = socketPathFor(realpathOf(vault), { VAULT_QUERY_CACHE_DIR: cache })!;
	const { reply, error } = await exchange(socket, {
		stamp: SERVER_STAMP,
		argv: [...argv, '--vault', vault],
		cwd: REPO,
	});
	if (reply !== null && 'code' in reply) return { code: reply.code, stdout: reply.stdout.join('\n') };
	if (mayDecline && reply !== null && 'declined' in reply) return null;
	throw new Error(`the server did not answer ${argv.join(' ')}: ${JSON.stringify(reply) ?? error}`);
}

describe('the background server', () => {
	it('the client sends every command that reads the vault and answers once; the server manages no other', async () => {
		const { COMMANDS } = await import('../../src/cli/commands/index');
		const { SERVED_COMMANDS } = await import('../../src/cli/server/protocol');
		// mcp is a server itself; index and server manage the snapshot and the server: they run in the call.
		expect([...SERVED_COMMANDS].sort()).toEqual(
			COMMANDS.map((c) => c.name)
				.filter((n) => !['mcp', 'index', 'server'].includes(n))
				.sort(),
		);
	});

	it('is started by the first call, answers the next ones exactly as a call of its own would, and stops when asked', async () => {
		const before = hashTree(vault);
		const first = await bin(['backlinks', 'conventions', '--vault', vault, '--json', '--verbose']);
		expect(first.code).toBe(0);
		// It started the server and waited for its answer rather than reading the vault too.
		expect(first.stderr).toMatch(/answered by the background server/);
		await serverUp();
		for (const query of [
			['backlinks', 'conventions'],
			['tag', 'decision'],
			['search', 'obsidian plugin'],
			['grep', 'OB1'],
			['pack', 'why obsidian'],
			['lookup', 'conventions'],
			['note', 'conventions'],
		]) {
			const warm = await bin([...query, '--vault', vault, '--json', '--verbose']);
			const alone = await bin([...query, '--vault', vault, '--json', '--no-server']);
			expect(warm.stderr, query.join(' ')).toMatch(/answered by the background server/);
			expect({ code: warm.code, out: warm.stdout }).toEqual({ code: alone.code, out: alone.stdout });
		}
		// `status` says what the answering process holds: the server has its search index ready.
		expect(JSON.parse((await bin(['status', '--vault', vault, '--json'])).stdout)).toMatchObject({
			search_index: 'ready',
		});
		const status = await bin(['server', '--status', '--vault', vault]);
		expect(status.stdout).toMatch(/background server pid \d+/);
		expect((await bin(['index', '--status', '--vault', vault])).stdout).toMatch(/server: +background server pid/);
		const stop = await bin(['server', '--stop', '--vault', vault]);
		expect(stop.stdout).toMatch(/Stopped the background server/);
		expect((await bin(['server', '--status', '--vault', vault])).code).toBe(1);
		// With a snapshot saved, the next call starts a server again, which reads it as saved.
		const again = await bin(['tag', 'decision', '--vault', vault, '--verbose']);
		expect(again.stderr).toMatch(/answered by the background server/);
		await serverUp();
		// The socket and its log live in the private cache folder, never in the vault.
		expect(hashTree(vault)).toBe(before);
	}, 60_000);

	it('two calls racing a starting server read the vault once: both wait for the one server, which answers them', async () => {
		const counts = mkdtempSync(join(tmpdir(), 'vq-build-log-'));
		const log = join(counts, 'builds.log');
		try {
			const env = { ...serverEnv(), VAULT_QUERY_BUILD_LOG: log };
			const query = ['backlinks', 'conventions', '--vault', vault, '--json', '--verbose'];
			const [one, two] = await Promise.all([bin(query, env), bin(query, env)]);
			// A call's own answer, read without the server and without the count.
			const alone = await bin(['backlinks', 'conventions', '--vault', vault, '--json', '--no-server']);
			for (const call of [one, two]) {
				expect(call.stderr).toMatch(/answered by the background server/);
				expect({ code: call.code, out: call.stdout }).toEqual({ code: alone.code, out: alone.stdout });
			}
			// Once the server has handed over to its successor (which reads the saved snapshot), a third call is warm.
			await serverUp();
			expect((await bin(query, env)).stderr).toMatch(/answered by the background server/);
			const builds = readFileSync(log, 'utf8').trim().split('\n');
			expect(builds, 'one full read of the vault, by one process').toHaveLength(1);
			expect(builds[0]).toContain(realpathOf(vault));
		} finally {
			rmSync(counts, { recursive: true, force: true });
		}
	}, 90_000);

	it('a call with --no-server reads and counts its own build, and the count is never written inside the vault', async () => {
		const before = hashTree(vault);
		const counts = mkdtempSync(join(tmpdir(), 'vq-build-log-'));
		try {
			const outside = join(counts, 'builds.log');
			const inside = join(vault, 'builds.log');
			const query = ['tag', 'decision', '--vault', vault, '--no-server'];
			await bin(query, { ...serverEnv(), VAULT_QUERY_BUILD_LOG: outside });
			expect(readFileSync(outside, 'utf8').trim().split('\n')).toHaveLength(1);
			await bin(['index', '--clear', '--vault', vault]);
			await bin(query, { ...serverEnv(), VAULT_QUERY_BUILD_LOG: inside });
			expect(existsSync(inside)).toBe(false);
			expect(hashTree(vault)).toBe(before);
		} finally {
			rmSync(counts, { recursive: true, force: true });
		}
	});

	it('is neither used nor started with --no-server, --no-cache, --help or VAULT_QUERY_SERVER=off', async () => {
		await bin(['tag', 'decision', '--vault', vault, '--no-server']);
		expect((await bin(['tag', '--help', '--vault', vault])).stdout).toMatch(/vault-query tag/);
		await bin(['tag', 'decision', '--vault', vault, '--no-cache']);
		await bin(['tag', 'decision', '--vault', vault], { ...serverEnv(), VAULT_QUERY_SERVER: 'off' });
		// A call that starts a server writes its pid file and log before it returns: none means none was started.
		expect(readServerPid(realpathOf(vault))).toBeNull();
		expect(readdirSync(cache).filter((f) => /\.(sock|log|pid)$/.test(f))).toEqual([]);
	});

	it('a server that accepts a call and never answers does not hang the call: it answers on its own', async () => {
		const socket = socketPathFor(realpathOf(vault), { VAULT_QUERY_CACHE_DIR: cache })!;
		const silent = createServer({ allowHalfOpen: true }, () => undefined);
		await new Promise<void>((resolve) => silent.listen(socket, resolve));
		try {
			// Answering at all is the point: a hang would run into the test's timeout.
			const asked = await askServer(['tag', 'decision', '--vault', vault], REPO, serverEnv(), 300);
			expect(asked.kind).toBe('skipped');
		} finally {
			silent.close();
		}
	});

	it('with a cache folder that cannot be written, calls answer on their own with one warning and start no server', async () => {
		const blocker = join(cache, 'a-file');
		writeFileSync(blocker, 'not a folder');
		const env = { ...serverEnv(), VAULT_QUERY_CACHE_DIR: join(blocker, 'cache') };
		const truth = await bin(['backlinks', 'conventions', '--vault', vault, '--json', '--no-cache'], env);
		for (let i = 0; i < 2; i++) {
			const call = await bin(['backlinks', 'conventions', '--vault', vault, '--json'], env);
			expect({ code: call.code, out: call.stdout }).toEqual({ code: 0, out: truth.stdout });
			expect(call.stderr.trim().split('\n')).toEqual([
				expect.stringMatching(/warning: the index snapshot could not be saved/),
			]);
		}
	});

	it('answers every query like a full read after random edits, with no wait between edit and call', async () => {
		const { stopped, stderr } = await serverInProcess();
		const names = ['a.md', 'b.md', 'sub/c.md'];
		const text = fc
			.record({
				word: fc.constantFrom('alpha', 'gamma'),
				tag: fc.constantFrom('#aa', '#bb'),
				link: fc.constantFrom('a', 'b', 'c', 'conventions'),
			})
			.map((r) => `---\nstatus: ${r.word}\n---\n# T\n\n${r.word} ${r.tag} [[${r.link}]]\n`);
		const edit = fc.oneof(
			fc.record({ kind: fc.constant('write' as const), name: fc.constantFrom(...names), text }),
			fc.record({ kind: fc.constant('delete' as const), name: fc.constantFrom(...names) }),
			fc.record({
				kind: fc.constant('rename' as const),
				name: fc.constantFrom(...names),
				to: fc.constantFrom('d.md', 'sub/e.md', 'new/f.md'),
			}),
			fc.record({ kind: fc.constant('exclude' as const), folders: fc.subarray(['sub/', 'decisions/']) }),
		);
		const queries = [
			['tag', 'aa'],
			['backlinks', 'a'],
			['links', 'b'],
			['grep', 'gamma'],
			['prop', 'status', 'alpha'],
			['search', 'alpha'],
			['pack', 'gamma alpha'],
			['search', 'gamma', '--links-key', 'related'],
		];
		let answered = 0;
		await fc
			.assert(
				fc.asyncProperty(
					fc.array(edit, { minLength: 1, maxLength: 4 }),
					fc.nat(queries.length - 1),
					async (edits, k) => {
						for (const e of edits) {
							const at = (n: string): string => join(vault, n);
							if (e.kind === 'write') {
								mkdirSync(join(at(e.name), '..'), { recursive: true });
								writeFileSync(at(e.name), e.text);
							} else if (e.kind === 'delete') rmSync(at(e.name), { force: true });
							else if (e.kind === 'rename' && existsSync(at(e.name)) && !existsSync(at(e.to))) {
								mkdirSync(join(at(e.to), '..'), { recursive: true });
								renameSync(at(e.name), at(e.to));
							} else if (e.kind === 'exclude')
								writeFileSync(
									at('.obsidian/app.json'),
									JSON.stringify({ userIgnoreFilters: e.folders }),
								);
						}
						for (const q of [queries[k]!, queries[(k + 3) % queries.length]!]) {
							const warm = await served([...q, '--json']);
							const full = await cli([...q, '--vault', vault, '--json', '--no-cache']);
							expect({ q, code: warm!.code, out: warm!.stdout }).toEqual({
								q,
								code: full.code,
								out: full.stdout,
							});
							answered++;
						}
					},
				),
				{ numRuns: 25, endOnFailure: true },
			)
			.catch((error: unknown) => {
				throw new Error(`${String((error as Error).cause ?? error)}\nserver log:\n${stderr.join('\n')}`);
			});
		expect(answered).toBe(50);
		await exchange(socketPathFor(realpathOf(vault), { VAULT_QUERY_CACHE_DIR: cache })!, {
			stamp: SERVER_STAMP,
			control: 'stop',
		});
		await stopped;
	}, 180_000);

	it('answers many calls at once, each correctly', async () => {
		const { stopped } = await serverInProcess();
		const queries = [
			['backlinks', 'conventions'],
			['tag', 'decision'],
			['search', 'obsidian'],
			['grep', 'OB1'],
			['links', 'conventions'],
			['prop', 'status', 'accepted'],
		];
		const truths = await Promise.all(queries.map((q) => cli([...q, '--vault', vault, '--json', '--no-cache'])));
		const answers = await Promise.all([...queries, ...queries].map((q) => served([...q, '--json'])));
		answers.forEach((a, i) => expect(a?.stdout).toBe(truths[i % queries.length]!.stdout));
		await cli(['server', '--stop', '--vault', vault]);
		await stopped;
	}, 60_000);

	it('steps aside for a call from another build, and stops', async () => {
		const { stopped, stderr } = await serverInProcess();
		const socket = socketPathFor(realpathOf(vault), { VAULT_QUERY_CACHE_DIR: cache })!;
		const { reply } = await exchange(socket, { stamp: 'another-build', argv: ['tag', 'decision'], cwd: REPO });
		expect(reply).toEqual({ declined: 'this server is another build', stopped: true });
		await stopped;
		expect(stderr.join('\n')).toMatch(/stopping \(a call from another build\)/);
		expect(existsSync(socket)).toBe(false);
	}, 60_000);

	it('stops when the vault folder is moved away and another is put in its place; the call still answers correctly', async () => {
		const { stopped } = await serverInProcess();
		renameSync(vault, `${vault}-moved`);
		cpSync(`${vault}-moved`, vault, { recursive: true });
		writeFileSync(join(vault, 'only-here.md'), '#fresh\n');
		expect(await served(['tag', 'fresh', '--json'], true)).toBeNull();
		await stopped;
		const alone = await bin(['tag', 'fresh', '--vault', vault, '--json']);
		expect((JSON.parse(alone.stdout) as { results: { path: string }[] }).results.map((r) => r.path)).toEqual([
			'only-here.md',
		]);
		rmSync(`${vault}-moved`, { recursive: true, force: true });
	}, 60_000);

	it('stops once the plugin settings change, after answering with them', async () => {
		const { stopped } = await serverInProcess();
		const settings = join(vault, '.obsidian', 'plugins', 'vault-query');
		mkdirSync(settings, { recursive: true });
		writeFileSync(join(settings, 'data.json'), JSON.stringify({ linksKey: 'related' }));
		const warm = await served(['backlinks', 'conventions', '--json']);
		const full = await cli(['backlinks', 'conventions', '--vault', vault, '--json', '--no-cache']);
		expect(warm?.stdout).toBe(full.stdout);
		await stopped;
	}, 60_000);

	it('replaces a stale socket file, and a second server leaves the vault to the first', async () => {
		const socket = socketPathFor(realpathOf(vault), { VAULT_QUERY_CACHE_DIR: cache })!;
		// A socket file nobody listens on: what a server killed with SIGKILL leaves behind.
		const dead = spawn(
			process.execPath,
			['-e', `require('node:net').createServer().listen(${JSON.stringify(socket)}, () => console.log('up'))`],
			{ stdio: ['ignore', 'pipe', 'inherit'] },
		);
		await new Promise((resolve) => dead.stdout.once('data', resolve));
		dead.kill('SIGKILL');
		await new Promise((resolve) => dead.once('exit', resolve));
		expect(existsSync(socket)).toBe(true);
		const first = await bin(['tag', 'decision', '--vault', vault, '--json']);
		expect(first.code).toBe(0);
		await serverUp();
		const second: string[] = [];
		const { runCli } = await import('../../src/cli/run');
		expect(
			await runCli(['server', '--vault', vault], {
				stdout: () => undefined,
				stderr: (t) => second.push(t),
				cwd: REPO,
			}),
		).toBe(0);
		expect(second.join('\n')).toMatch(/another server already serves this vault/);
		expect((await bin(['tag', 'decision', '--vault', vault, '--json', '--verbose'])).stderr).toMatch(
			/answered by the background server/,
		);
		// The pid file still names the serving server, not the one that stepped aside.
		const status = JSON.parse((await bin(['server', '--status', '--vault', vault, '--json'])).stdout) as {
			server: { pid: number };
		};
		expect(readServerPid(realpathOf(vault))).toBe(status.server.pid);
	}, 60_000);

	it('`server --stop` reaches a server that cannot answer its socket through its pid file, and leaves any other program alone', async () => {
		const real = realpathOf(vault);
		const idle = 'setInterval(() => {}, 1000)';
		// A process that is a server of this vault by its command line, and never listens (as one still starting).
		const mute = spawn(process.execPath, ['-e', idle, 'server', '--vault', real], { stdio: 'ignore' });
		const muteExit = new Promise<string | null>((resolve) => mute.once('exit', (_code, signal) => resolve(signal)));
		writeServerPid(real, mute.pid!);
		const stop = await bin(['server', '--stop', '--vault', vault]);
		expect(stop.code).toBe(0);
		expect(stop.stdout).toMatch(new RegExp(`did not answer .*pid ${mute.pid} was sent SIGTERM`));
		expect(await muteExit).toBe('SIGTERM');

		// A stale pid file whose pid now belongs to another program, or to a server of another vault.
		for (const args of [
			['-e', idle],
			['-e', idle, 'server', '--vault', `${real}-other`],
		]) {
			const other = spawn(process.execPath, args, { stdio: 'ignore' });
			try {
				writeServerPid(real, other.pid!);
				const none = await bin(['server', '--stop', '--vault', vault]);
				expect(none.code).toBe(1);
				expect(none.stdout).toMatch(/No background server runs/);
				expect(other.exitCode).toBeNull();
				expect(other.signalCode).toBeNull();
			} finally {
				other.kill('SIGKILL');
			}
		}
	}, 60_000);

	it('`index --clear` does not wait on a server that neither answers nor ends on SIGTERM: it kills it, says so, and clears', async () => {
		const real = realpathOf(vault);
		expect((await bin(['index', '--vault', vault])).code).toBe(0);
		const deaf = spawn(
			process.execPath,
			[
				'-e',
				"process.on('SIGTERM', () => {}); process.stdout.write('deaf\\n'); setInterval(() => {}, 1000)",
				'server',
				'--vault',
				real,
			],
			{ stdio: ['ignore', 'pipe', 'ignore'] },
		);
		const deafExit = new Promise<string | null>((resolve) => deaf.once('exit', (_code, signal) => resolve(signal)));
		// It says so once its SIGTERM handler is in place.
		await new Promise((resolve) => deaf.stdout.once('data', resolve));
		writeServerPid(real, deaf.pid!);
		const clear = await bin(['index', '--clear', '--vault', vault]);
		expect(clear.code).toBe(0);
		expect(clear.stderr).toMatch(new RegExp(`pid ${deaf.pid}\\) did not stop within 5 s; it was killed`));
		expect(clear.stdout).toMatch(/Deleted the index snapshot/);
		expect(await deafExit).toBe('SIGKILL');
	}, 60_000);

	it('a server stopped right after the call that started it stops, whether it listens yet or not', async () => {
		const first = await bin(['tag', 'decision', '--vault', vault]);
		expect(first.code).toBe(0);
		const pid = readServerPid(realpathOf(vault));
		expect(pid).not.toBeNull(); // written by the call, before the server has loaded a module
		const stop = await bin(['server', '--stop', '--vault', vault]);
		expect(stop.stdout).toMatch(/Stopped the background server/);
		await waitFor(
			() => {
				try {
					process.kill(pid!, 0);
					return false;
				} catch {
					return true;
				}
			},
			{ what: `the stopped server (pid ${pid}) to end`, pollMs: 100 },
		);
		expect((await bin(['server', '--status', '--vault', vault])).code).toBe(1);
	}, 60_000);
});
