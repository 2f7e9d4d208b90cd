/**
 * A call that finds no server ready (src/cli/server/first-call.ts): it starts the vault's server
 * once and waits for it; a server that ends without answering makes the call answer on its own
 * rather than start servers again and again. The call's deadline follows the server's read: the
 * clock the call reads is a counter here, moved on by the fake server at each status it gives.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProgressStream } from '../../src/cli/progress';
import { START_DEADLINE_MS, waitForServer } from '../../src/cli/server/first-call';
import { writeServerPid } from '../../src/cli/server/pid-file';
import { SILENCE_ENV, socketPathFor } from '../../src/cli/server/protocol';

let cache: string;
let vault: string;
const previous = process.env.VAULT_QUERY_CACHE_DIR;
beforeEach(() => {
	cache = mkdtempSync(join(tmpdir(), 'vq-first-cache-'));
	vault = realpathSync.native(mkdtempSync(join(tmpdir(), 'vq-first-vault-')));
	process.env.VAULT_QUERY_CACHE_DIR = cache;
});
afterEach(() => {
	process.env.VAULT_QUERY_CACHE_DIR = previous;
	rmSync(cache, { recursive: true, force: true });
	rmSync(vault, { recursive: true, force: true });
});

const ENV = (): Record<string, string | undefined> => ({
	...process.env,
	VAULT_QUERY_SERVER: 'on',
	VAULT_QUERY_CACHE_DIR: cache,
});

/**
 * A server on the vault's socket that replies to each request (parsed) with `reply(request)`, or
 * takes it and writes nothing when that is null (a server busy in synchronous work); resolves with a `close()`.
 */
async function fakeServer(reply: (request: { control?: string }) => object | null) {
	const socket = socketPathFor(vault, ENV())!;
	const held: Socket[] = [];
	const server = createServer({ allowHalfOpen: true }, (conn) => {
		let text = '';
		conn.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
		conn.on('end', () => {
			const answer = reply(JSON.parse(text) as { control?: string });
			if (answer === null) held.push(conn);
			else conn.end(`${JSON.stringify(answer)}\n`);
		});
	});
	mkdirSync(dirname(socket), { recursive: true, mode: 0o700 });
	await new Promise<void>((resolve) => server.listen(socket, resolve));
	return {
		close: () => {
			for (const conn of held) conn.destroy();
			return new Promise((resolve) => server.close(resolve));
		},
	};
}

const STARTING = { declined: 'the server is reading the vault', starting: true };
const ANSWER = { stdout: ['answer'], stderr: [], code: 0 };

/** A call that found the vault's server starting: it waits for that one and starts none. */
const callWhileStarting = (
	stderr: ProgressStream = { isTTY: false, write: () => true },
	env: Record<string, string | undefined> = ENV(),
) =>
	waitForServer(
		['tag', 'x', '--vault', vault],
		vault,
		{ kind: 'starting', vault },
		{ env, start: () => expect.fail('a server is starting: none is started'), stderr },
	);

/** A process whose command line is the vault's server's (as `startServer` spawns it), named in its pid file: the server lives. */
async function liveServerProcess(): Promise<ChildProcess> {
	const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)', 'server', '--vault', vault], {
		stdio: 'ignore',
	});
	await new Promise((done) => child.once('spawn', done));
	writeServerPid(vault, child.pid!);
	return child;
}

/** The clock the calls read, as a counter the test moves (restored after each test). */
let clock = 0;
beforeEach(() => {
	clock = 0;
	vi.spyOn(performance, 'now').mockImplementation(() => clock);
});
afterEach(() => vi.restoreAllMocks());

describe('a call that finds no server', () => {
	it('starts one once, and answers on its own when that server never comes up', async () => {
		const started: string[] = [];
		const asked = await waitForServer(
			['tag', 'x', '--vault', vault],
			vault,
			{ kind: 'absent', vault },
			{ env: ENV(), start: (v) => started.push(v), stderr: { isTTY: false, write: () => true } },
		);
		expect(asked).toEqual({ kind: 'skipped' });
		expect(started).toEqual([vault]);
	});

	it('waits while the server reads the vault, showing how far on a terminal, and takes its answer', async () => {
		let calls = 0;
		// A server still reading the vault for two asks, then answering.
		const server = await fakeServer((request) =>
			request.control === 'status'
				? { status: { building: { read: 50, total: 100 } } }
				: ++calls <= 2
					? STARTING
					: ANSWER,
		);
		const delay = process.env.VAULT_QUERY_PROGRESS_AFTER_MS;
		process.env.VAULT_QUERY_PROGRESS_AFTER_MS = '0';
		try {
			const written: string[] = [];
			const asked = await callWhileStarting({ isTTY: true, write: (t) => written.push(t) });
			expect(asked).toEqual({ kind: 'answered', ...ANSWER });
			expect(
				written[0]!.startsWith('\rvault-query: reading the vault (background server), 50 / 100 notes, about '),
			).toBe(true);
			expect(written.at(-1)).toBe('\r\x1b[K');
		} finally {
			process.env.VAULT_QUERY_PROGRESS_AFTER_MS = delay;
			await server.close();
		}
	});

	it('keeps waiting past the start deadline while the server reads on, so two calls answer from its one read', async () => {
		// A minute passes at every status the server gives, and its read advances 10 notes each
		// time: the whole read outlasts the deadline several times over.
		let read = 0;
		const server = await fakeServer((request) => {
			if (request.control !== 'status') return read < 100 ? STARTING : ANSWER;
			clock += 60_000;
			read = Math.min(100, read + 10);
			return { status: { building: { read, total: 100 } } };
		});
		try {
			// Both take the server's answer: neither gave up and read the vault on its own (a second build).
			const answers = await Promise.all([callWhileStarting(), callWhileStarting()]);
			expect(answers).toEqual([
				{ kind: 'answered', ...ANSWER },
				{ kind: 'answered', ...ANSWER },
			]);
			expect(clock).toBeGreaterThan(2 * START_DEADLINE_MS);
		} finally {
			await server.close();
		}
	});

	it('answers on its own when the server stops advancing for the deadline', async () => {
		let statuses = 0;
		// Stuck at half the vault: a minute passes at every status, the count never moves.
		const server = await fakeServer((request) => {
			if (request.control !== 'status') return STARTING;
			statuses++;
			clock += 60_000;
			return { status: { building: { read: 50, total: 100 } } };
		});
		try {
			expect(await callWhileStarting()).toEqual({ kind: 'skipped' });
			// The first status is progress (50 notes read); three more minutes without a step end the wait.
			expect(statuses).toBe(1 + START_DEADLINE_MS / 60_000);
		} finally {
			await server.close();
		}
	});

	it('answers on its own at once when a live server declines the call, rather than ask it again until the deadline', async () => {
		// A live server process: only its reply tells the call not to wait.
		const child = await liveServerProcess();
		let calls = 0;
		let read = 0;
		const server = await fakeServer((request) => {
			if (request.control === 'status') return { status: { building: { read: ++read, total: 100 } } };
			return ++calls === 1 ? STARTING : { declined: 'the server failed: a test failure' };
		});
		try {
			expect(await callWhileStarting()).toEqual({ kind: 'skipped' });
			expect(calls).toBe(2);
		} finally {
			child.kill('SIGKILL');
			await server.close();
		}
	});

	it('asks again a live server too busy in its read to take the call, rather than read the vault on its own', async () => {
		const child = await liveServerProcess();
		let calls = 0;
		let read = 0;
		// The first three asks are taken and never acknowledged (a long synchronous step); its read advances.
		const server = await fakeServer((request) => {
			if (request.control === 'status') return { status: { building: { read: ++read, total: 100 } } };
			return ++calls <= 3 ? null : ANSWER;
		});
		try {
			// The acknowledgement deadline shortened to 50 ms by its test-only variable.
			const asked = await callWhileStarting(undefined, { ...ENV(), [SILENCE_ENV]: '100' });
			expect(asked).toEqual({ kind: 'answered', ...ANSWER });
			expect(calls).toBe(4);
		} finally {
			child.kill('SIGKILL');
			await server.close();
		}
	});
});
