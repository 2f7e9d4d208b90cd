/**
 * A call that finds no server ready (src/cli/server/first-call.ts): it starts the vault's server
 * once and waits for it; a server that ends without answering makes the call answer on its own
 * rather than start servers again and again.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitForServer } from '../../src/cli/server/first-call';
import { socketPathFor } from '../../src/cli/server/protocol';

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

describe('a call that finds no server', () => {
	it('starts one once, and answers on its own when that server never comes up', async () => {
		const started: string[] = [];
		const env = { ...process.env, VAULT_QUERY_SERVER: 'on', VAULT_QUERY_CACHE_DIR: cache };
		const asked = await waitForServer(
			['tag', 'x', '--vault', vault],
			vault,
			{ kind: 'absent', vault },
			{ env, start: (v) => started.push(v), stderr: { isTTY: false, write: () => true } },
		);
		expect(asked).toEqual({ kind: 'skipped' });
		expect(started).toEqual([vault]);
	});

	it('waits while the server reads the vault, showing how far on a terminal, and takes its answer', async () => {
		const env = { ...process.env, VAULT_QUERY_SERVER: 'on', VAULT_QUERY_CACHE_DIR: cache };
		const socket = socketPathFor(vault, env)!;
		let calls = 0;
		// A server still reading the vault for two asks, then answering.
		const server = createServer({ allowHalfOpen: true }, (conn) => {
			let text = '';
			conn.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
			conn.on('end', () => {
				const request = JSON.parse(text) as { control?: string };
				const reply =
					request.control === 'status'
						? { status: { building: { read: 50, total: 100 } } }
						: ++calls <= 2
							? { declined: 'the server is reading the vault', starting: true }
							: { stdout: ['answer'], stderr: [], code: 0 };
				conn.end(`${JSON.stringify(reply)}\n`);
			});
		});
		mkdirSync(dirname(socket), { recursive: true, mode: 0o700 });
		await new Promise<void>((resolve) => server.listen(socket, resolve));
		const delay = process.env.VAULT_QUERY_PROGRESS_AFTER_MS;
		process.env.VAULT_QUERY_PROGRESS_AFTER_MS = '0';
		try {
			const written: string[] = [];
			const asked = await waitForServer(
				['tag', 'x', '--vault', vault],
				vault,
				{ kind: 'starting', vault },
				{
					env,
					start: () => expect.fail('a server is starting: none is started'),
					stderr: { isTTY: true, write: (t) => written.push(t) },
				},
			);
			expect(asked).toEqual({ kind: 'answered', stdout: ['answer'], stderr: [], code: 0 });
			expect(
				written[0]!.startsWith('\rvault-query: reading the vault (background server), 50 / 100 notes, about '),
			).toBe(true);
			expect(written.at(-1)).toBe('\r\x1b[K');
		} finally {
			process.env.VAULT_QUERY_PROGRESS_AFTER_MS = delay;
			await new Promise((resolve) => server.close(resolve));
		}
	});
});
