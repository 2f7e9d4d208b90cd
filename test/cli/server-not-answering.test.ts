/**
 * A background server that accepts a call but never answers (frozen, or busy in a long read) does
 * not hold its callers: a call gives up after the acknowledgement deadline and answers on its own,
 * and `server --status` names the live pid as "not answering" instead of saying none runs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { askServer } from '../../src/cli/server/client';
import { writeServerPid } from '../../src/cli/server/pid-file';
import { socketPathFor } from '../../src/cli/server/protocol';
import { cli } from '../helpers/cli';

let cache = '';
let vault = '';
let previousCache: string | undefined;
let fake: Server | null = null;
let held: Socket[] = [];
let child: ChildProcess | null = null;

beforeEach(() => {
	previousCache = process.env.VAULT_QUERY_CACHE_DIR;
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
	rmSync(cache, { recursive: true, force: true });
	rmSync(vault, { recursive: true, force: true });
});

/** A socket at the vault's server path that accepts every connection, reads the request and never writes a byte. */
async function silentServer(): Promise<{ accepted: () => number }> {
	const path = socketPathFor(vault);
	if (path === null) throw new Error('no socket path for the test vault');
	let accepted = 0;
	// Half-open allowed: a frozen server never ends its side when the call ends its own.
	fake = createServer({ allowHalfOpen: true }, (socket) => {
		accepted++;
		held.push(socket);
		socket.resume();
	});
	await new Promise<void>((done) => fake!.listen(path, done));
	return { accepted: () => accepted };
}

describe.runIf(process.platform !== 'win32')('a server that accepts and never answers', () => {
	it('a call gives up at the acknowledgement deadline and runs on its own (the server got the call)', async () => {
		const server = await silentServer();
		const env = { ...process.env, VAULT_QUERY_SERVER: undefined };
		const asked = await askServer(['grep', 'alpha', '--vault', vault], vault, env, 0, undefined, 300);
		expect(asked).toEqual({ kind: 'skipped' });
		expect(server.accepted()).toBe(1);
	});

	it('server --status names a live server pid whose socket does not answer as "not answering"', async () => {
		await silentServer();
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
