/**
 * What the background server's socket accepts: only the commands a call sends it. Whoever can
 * write to the socket cannot make the server clear the index, start an MCP server or serve another vault.
 */
import { execFile, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { exchange } from '../../src/cli/server/client';
import { SERVER_STAMP, socketPathFor } from '../../src/cli/server/protocol';
import { EXAMPLE_VAULT, REPO } from '../helpers/paths';
import { waitFor } from '../helpers/wait';

const run = promisify(execFile);
const BIN = join(REPO, 'dist', 'cli.mjs');

describe.runIf(process.platform !== 'win32')('the server socket accepts only the commands it serves', () => {
	it('declines index --clear, mcp and server --vault other, and still answers a query', async () => {
		const cache = mkdtempSync(join(tmpdir(), 'vq-served-cache-'));
		const vault = realpathSync(join(mkdtempSync(join(tmpdir(), 'vq-served-vault-'))));
		cpSync(EXAMPLE_VAULT, join(vault, 'v'), { recursive: true });
		const real = join(vault, 'v');
		const env = { ...process.env, VAULT_QUERY_SERVER: 'on', VAULT_QUERY_CACHE_DIR: cache };
		const child = spawn(process.execPath, [BIN, 'server', '--vault', real], { env, stdio: 'ignore' });
		const socket = socketPathFor(real, env) as string;
		try {
			await waitFor(
				async () => {
					const { reply } = await exchange(socket, { stamp: SERVER_STAMP, control: 'status' }, 30_000);
					return reply !== null && 'status' in reply && reply.status.ready;
				},
				{ what: 'the server to be ready' },
			);
			for (const argv of [
				['index', '--clear', '--vault', real],
				['mcp', '--vault', real],
				['server', '--vault', '/'],
			]) {
				const { reply } = await exchange(socket, { stamp: SERVER_STAMP, argv, cwd: REPO }, 30_000);
				expect(reply, argv.join(' ')).toEqual({ declined: 'not a command this server answers' });
			}
			const answered = await run(process.execPath, [BIN, 'tag', 'decision', '--vault', real, '--verbose'], {
				env,
				encoding: 'utf8',
			});
			expect(answered.stderr).toMatch(/answered by the background server/);
		} finally {
			child.kill('SIGTERM');
		}
	}, 60_000);
});
