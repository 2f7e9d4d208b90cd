/**
 * A background server that accepts a call but never answers (frozen, or busy in a long read) does
 * not hold its callers: a call gives up after the acknowledgement deadline — or, once acknowledged,
 * after the silence deadline, which a live server's heartbeat keeps a long call inside — and answers
 * on its own; `server --status` names the live pid as "not answering" instead of saying none runs.
 * The deadlines are shortened here by their test-only variable (VAULT_QUERY_TEST_SILENCE_MS).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { parseArgs } from '../../src/cli/args';
import { GLOBAL_FLAGS, type CommandIO } from '../../src/cli/command';
import { serverCommand } from '../../src/cli/commands/server';
import { runCli } from '../../src/cli/run';
import { askServer, exchange } from '../../src/cli/server/client';
import { writeServerPid } from '../../src/cli/server/pid-file';
import { SERVER_STAMP, SILENCE_ENV, socketPathFor } from '../../src/cli/server/protocol';
import { runCliServer } from '../../src/cli/server/serve';
import { cli } from '../helpers/cli';
import { waitFor } from '../helpers/wait';

let cache = '';
let vault = '';
let previousCache: string | undefined;
let previousSilence: string | undefined;
let fake: Server | null = null;
let held: Socket[] = [];
let child: ChildProcess | null = null;

beforeEach(() => {
	previousCache = process.env.VAULT_QUERY_CACHE_DIR;
	previousSilence = process.env[SILENCE_ENV];
	cache = mkdtempSync(join(tmpdir(), 'vq-silent-cache-'));
	process.env.VAULT_QUERY_CACHE_DIR = cache;
	vault = realpathSync(mkdtempSync(join(tmpdir(), 'vq-silent-vault-')));
	mkdirSync(join(vault, '.obsidian'));
	writeFileSync(join(vault, 'A.md'), 'alpha\n');
});
afterEach(async () => {
	for (const socket of held) socket.destroy();
	held = [];
	if (fake !== null) await new Promise((done) => fake!.close(done));
	fake = null;
	if (child?.pid !== undefined) child.kill('SIGKILL');
	child = null;
	process.env.VAULT_QUERY_CACHE_DIR = previousCache;
	if (previousSilence === undefined) delete process.env[SILENCE_ENV];
	else process.env[SILENCE_ENV] = previousSilence;
	rmSync(cache, { recursive: true, force: true });
	rmSync(vault, { recursive: true, force: true });
});

/**
 * A socket at the vault's server path that accepts every connection, reads the request and then
 * writes nothing — or, with `ack`, only the acknowledgement a live server sends, as a server that
 * froze in the middle of the call.
 */
async function silentServer(ack = false): Promise<{ accepted: () => number; acked: () => number }> {
	const path = socketPathFor(vault);
	if (path === null) throw new Error('no socket path for the test vault');
	let accepted = 0;
	let acked = 0;
	// Half-open allowed: a frozen server never ends its side when the call ends its own.
	fake = createServer({ allowHalfOpen: true }, (socket) => {
		accepted++;
		held.push(socket);
		socket.on('end', () => {
			if (!ack) return;
			socket.write(' ');
			acked++;
		});
		socket.resume();
	});
	await new Promise<void>((done) => fake!.listen(path, done));
	return { accepted: () => accepted, acked: () => acked };
}

describe.runIf(process.platform !== 'win32')('a server that accepts and never answers', () => {
	it('a call gives up at the acknowledgement deadline and runs on its own (the server got the call)', async () => {
		const server = await silentServer();
		const env = { ...process.env, VAULT_QUERY_SERVER: undefined };
		const asked = await askServer(['grep', 'alpha', '--vault', vault], vault, env, 0, undefined, 300);
		expect(asked).toEqual({ kind: 'skipped', silent: true });
		expect(server.accepted()).toBe(1);
	});

	it('a call the server acknowledges and then goes silent on gives up at the silence deadline and runs on its own', async () => {
		const server = await silentServer(true);
		const env = { ...process.env, VAULT_QUERY_SERVER: undefined, [SILENCE_ENV]: '300' };
		// No overall deadline: only the silence deadline can end the wait (a hang runs into the test's timeout).
		const asked = await askServer(['grep', 'alpha', '--vault', vault], vault, env, 0);
		expect(asked).toEqual({ kind: 'skipped', silent: true });
		expect({ accepted: server.accepted(), acked: server.acked() }).toEqual({ accepted: 1, acked: 1 });
	});

	it.each([
		['never answers', false],
		['acknowledges and goes silent', true],
	])('server --status names a live server pid whose socket %s as "not answering"', async (_what, ack) => {
		process.env[SILENCE_ENV] = '300';
		await silentServer(ack);
		// A process whose command line is the vault's server's, as `startServer` spawns it, that never answers.
		child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)', 'server', '--vault', vault], {
			stdio: 'ignore',
		});
		await new Promise((done) => child!.once('spawn', done));
		writeServerPid(vault, child.pid!);
		const text = await cli(['server', '--status', '--vault', vault]);
		expect(text.stdout).toContain(`Background server pid ${child.pid} runs for ${vault} but is not answering`);
		expect(text.stdout).not.toContain('No background server runs');
		const json = JSON.parse((await cli(['server', '--status', '--vault', vault, '--json'])).stdout) as {
			server: unknown;
			not_answering?: { pid: number };
		};
		expect(json.server).toBeNull();
		expect(json.not_answering).toEqual({ pid: child.pid });
	});
});

describe.runIf(process.platform !== 'win32')('a server answering a long call', () => {
	it('sends a heartbeat while the call runs, and the caller waits past the silence deadline for its answer', async () => {
		// Heartbeats every 20 ms; a caller gives up after 200 ms of silence.
		process.env[SILENCE_ENV] = '200';
		const socketPath = socketPathFor(vault)!;
		let beats = 0;
		const io: CommandIO = { stdout: () => undefined, stderr: () => undefined, cwd: vault };
		// Each call is held until an observing caller has counted thirty heartbeats: three silence deadlines.
		const stopped = runCliServer({
			vaultPath: vault,
			args: parseArgs(['--vault', vault], { ...serverCommand.flags, ...GLOBAL_FLAGS }),
			io,
			idleMinutes: 5,
			runCli: async (argv, callIo) => {
				await waitFor(() => beats >= 30, { what: 'thirty heartbeats while the call is held' });
				return runCli(argv, callIo);
			},
		});
		await waitFor(
			async () => {
				const { reply } = await exchange(socketPath, { stamp: SERVER_STAMP, control: 'status' }, 2000);
				return reply !== null && 'status' in reply && reply.status.ready;
			},
			{ what: 'the server to come up' },
		);
		const call = { stamp: SERVER_STAMP, argv: ['grep', 'alpha', '--vault', vault], cwd: vault };
		// The observer: a raw connection that counts the spaces the server sends before its reply.
		const observed = new Promise<string>((done, failed) => {
			const socket = connect(socketPath);
			let text = '';
			socket.on('connect', () => socket.end(`${JSON.stringify(call)}\n`));
			socket.on('data', (data: Buffer) => {
				text += data.toString('utf8');
				if (text.trim() === '') beats = text.length - 1; // the first space is the acknowledgement
			});
			socket.on('error', failed);
			socket.on('close', () => done(text));
		});
		const asked = await askServer(call.argv, vault, { ...process.env, VAULT_QUERY_SERVER: undefined }, 0);
		const raw = await observed;
		expect(beats).toBeGreaterThanOrEqual(30);
		expect(JSON.parse(raw)).toMatchObject({ code: 0 });
		expect(asked.kind).toBe('answered');
		expect(asked.kind === 'answered' ? asked.stdout.join('\n') : '').toContain('A.md');
		await exchange(socketPath, { stamp: SERVER_STAMP, control: 'stop' }, 2000);
		await stopped;
	});
});
