/**
 * What the built `vault-query` does before it hands a call to a background server: a command line
 * it refuses starts none; a cache folder that cannot be created costs one warning, never a hang;
 * a server that acknowledges the call and then goes silent is given up on, and the call answers on
 * its own. Each runs the built CLI as a user would, with the server on and a private cache folder.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SILENCE_ENV, socketPathFor } from '../../src/cli/server/protocol';
import { REPO } from '../helpers/paths';

const BIN = join(REPO, 'dist', 'cli.mjs');
let cache = '';
let vault = '';

beforeEach(() => {
	cache = mkdtempSync(join(tmpdir(), 'vq-guards-cache-'));
	vault = realpathSync(mkdtempSync(join(tmpdir(), 'vq-guards-vault-')));
	mkdirSync(join(vault, '.obsidian'));
	writeFileSync(join(vault, 'A.md'), '# A\n\nalpha beta\n');
	writeFileSync(join(vault, 'B.md'), '# B\n\nbeta gamma, see [[A]]\n');
});
afterEach(() => {
	rmSync(cache, { recursive: true, force: true });
	rmSync(vault, { recursive: true, force: true });
});

/** Runs the built CLI with the server on; exit codes 1 and 2 are answers too. A process that never ends is killed, and fails the test. */
function bin(
	args: string[],
	env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
	return new Promise((done) => {
		execFile(
			process.execPath,
			[BIN, ...args],
			{
				env: {
					...process.env,
					VAULT_QUERY_SERVER: 'on',
					VAULT_QUERY_CACHE_DIR: cache,
					VAULT_QUERY_SERVER_IDLE_MINUTES: '1',
					...env,
				},
				encoding: 'utf8',
				timeout: 45_000, // clock-ok: a stuck-process deadline (the hang this file guards against), not a speed target
				killSignal: 'SIGKILL',
			},
			(error, stdout, stderr) => {
				const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
				done({ code, stdout, stderr });
			},
		);
	});
}

describe.runIf(process.platform !== 'win32')('a command line the CLI refuses', () => {
	it.each([
		['an unknown option', ['grep', 'alpha', '--bogus'], /unknown option "--bogus"/],
		['a number out of range', ['grep', 'alpha', '--limit', '0'], /--limit must be a whole number from 1/],
		['a missing argument', ['grep'], /missing <pattern>/],
		['an extra argument', ['status', 'extra'], /unexpected argument "extra"/],
		['an unknown sort', ['tag', 'x', '--sort', 'nope'], /--sort must be one of/],
		['a regex that does not compile', ['search', '/[/'], /invalid regular expression/],
	])('is refused with exit 2 and its reason before any server is started: %s', async (_what, argv, reason) => {
		const call = await bin([...argv, '--vault', vault]);
		expect(call.code).toBe(2);
		expect(call.stderr).toMatch(reason);
		expect(call.stdout).toBe('');
		// A call that starts a server writes its pid file and log before it returns, and the server its socket and snapshot: nothing means none was started, nothing read.
		expect(existsSync(cache) ? readdirSync(cache) : []).toEqual([]);
	});
});

describe.runIf(process.platform !== 'win32')('a cache folder that cannot be created', () => {
	it('under /proc: the call answers (without a cache) with one warning naming the folder, server on or off', async (ctx) => {
		ctx.skip(
			!existsSync('/proc/self'),
			'no /proc on this system: the folder no call can create there is a Linux one',
		);
		const env = { VAULT_QUERY_CACHE_DIR: '/proc/nope/cache' };
		const truth = await bin(['grep', 'beta', '--vault', vault, '--no-cache']);
		expect(truth.code).toBe(0);
		for (const server of ['on', 'off']) {
			const call = await bin(['grep', 'beta', '--vault', vault], { ...env, VAULT_QUERY_SERVER: server });
			expect({ server, code: call.code, stdout: call.stdout }).toEqual({ server, code: 0, stdout: truth.stdout });
			expect(call.stderr.trim().split('\n')).toEqual([
				expect.stringMatching(/warning: .*cannot create the cache folder \/proc\/nope\/cache: /),
			]);
		}
	});
});

describe.runIf(process.platform !== 'win32')('a server that acknowledges a call and goes silent', () => {
	let fake: Server | null = null;
	const held: Socket[] = [];
	afterEach(async () => {
		for (const socket of held.splice(0)) socket.destroy();
		if (fake !== null) await new Promise((done) => fake!.close(done));
		fake = null;
	});

	it('does not hold the call: it answers on its own, as a call without the server would', async () => {
		const path = socketPathFor(vault, { VAULT_QUERY_CACHE_DIR: cache });
		expect(path).not.toBeNull();
		let acked = 0;
		fake = createServer({ allowHalfOpen: true }, (socket) => {
			held.push(socket);
			socket.on('end', () => {
				socket.write(' ');
				acked++;
			});
			socket.resume();
		});
		await new Promise<void>((done) => fake!.listen(path!, done));
		const truth = await bin(['grep', 'beta', '--vault', vault, '--no-server']);
		const call = await bin(['grep', 'beta', '--vault', vault], { [SILENCE_ENV]: '500' });
		expect({ code: call.code, stdout: call.stdout }).toEqual({ code: 0, stdout: truth.stdout });
		expect(acked).toBe(1);
	});
});
