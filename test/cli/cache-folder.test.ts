import { once } from 'node:events';
import {
	chmodSync,
	chownSync,
	lstatSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { askServer, foreignSocket } from '../../src/cli/server/client';
import { replaceFile } from '../../src/cli/server/pid-file';
import { serverLogPath, startServer } from '../../src/cli/server/spawn';
import { safeCacheFolder } from '../../src/node/snapshot/cache-dir';
import { cli } from '../helpers/cli';
import { EXAMPLE_VAULT } from '../helpers/paths';

/** Root can give a file to another uid without a second account: the tests of other users' folders and sockets need it. */
const ROOT = process.getuid?.() === 0;
const OTHER_UID = 4242;
const UNIX = process.platform !== 'win32';

describe.runIf(UNIX)(
	'the cache folder follows the ssh rule: private folders only, nothing changed, no link followed',
	() => {
		let base: string;
		const saved = process.env.VAULT_QUERY_CACHE_DIR;
		beforeEach(() => {
			base = mkdtempSync(join(tmpdir(), 'vq-cache-safety-'));
		});
		afterEach(() => {
			process.env.VAULT_QUERY_CACHE_DIR = saved;
		});

		/** A folder at `name` in the test's base with `mode` (set after creation, so the umask does not narrow it). */
		function folder(name: string, mode: number): string {
			const path = join(base, name);
			mkdirSync(path);
			chmodSync(path, mode);
			return path;
		}

		it('uses a missing folder (created private) or a private one of this user as named', () => {
			expect(safeCacheFolder(join(base, 'new'))).toEqual({ dir: join(base, 'new'), refused: null });
			const own = folder('own', 0o700);
			expect(safeCacheFolder(own)).toEqual({ dir: own, refused: null });
			const readable = folder('readable', 0o755);
			expect(safeCacheFolder(readable)).toEqual({ dir: readable, refused: null });
		});

		it('refuses a folder group or others may write without the sticky bit, and a `vault-query` link inside a shared one', () => {
			const open = folder('open', 0o777);
			expect(safeCacheFolder(open).refused).toMatch(
				/writable by group or others \(mode 777\).*VAULT_QUERY_CACHE_DIR/,
			);
			const group = folder('group', 0o770);
			expect(safeCacheFolder(group).refused).toMatch(/writable by group or others/);
			const shared = folder('shared', 0o1777);
			symlinkSync(base, join(shared, 'vault-query'));
			expect(safeCacheFolder(shared).refused).toMatch(/vault-query is a symbolic link/);
		});

		it('a shared 1777 folder keeps its mode: the cache goes to a private vault-query folder inside it', async () => {
			const shared = folder('shared', 0o1777);
			process.env.VAULT_QUERY_CACHE_DIR = shared;
			const run = await cli(['tag', 'copilot', '--vault', EXAMPLE_VAULT]);
			expect(run.code).toBe(0);
			expect(run.stderr).not.toContain('warning');
			expect(statSync(shared).mode & 0o7777).toBe(0o1777);
			const inner = join(shared, 'vault-query');
			expect(statSync(inner).mode & 0o777).toBe(0o700);
			expect(readdirSync(inner).some((name) => name.endsWith('.vqs'))).toBe(true);
		});

		it('a folder others may write is refused with a warning and left as it was: nothing saved, the call still answers', async () => {
			const open = folder('open', 0o777);
			process.env.VAULT_QUERY_CACHE_DIR = open;
			const run = await cli(['tag', 'copilot', '--vault', EXAMPLE_VAULT]);
			expect(run.code).toBe(0);
			expect(run.stdout).toContain('copilot');
			expect(run.stderr).toContain('the cache folder is not safe');
			expect(statSync(open).mode & 0o777).toBe(0o777);
			expect(readdirSync(open)).toEqual([]);
		});

		it('the server log and pid files are new files renamed into place: a link planted at their name is replaced, its target untouched', () => {
			const cache = folder('cache', 0o700);
			const victim = join(base, 'victim.txt');
			writeFileSync(victim, 'precious\n');
			process.env.VAULT_QUERY_CACHE_DIR = cache;
			const log = serverLogPath('/some/vault');
			expect(log).not.toBeNull();
			symlinkSync(victim, log as string);
			startServer('/some/vault', join(base, 'no-such-entry.mjs'));
			expect(lstatSync(log as string).isSymbolicLink()).toBe(false);
			const pid = join(cache, 'x.pid');
			symlinkSync(victim, pid);
			replaceFile(pid, '123\n');
			expect(readFileSync(pid, 'utf8')).toBe('123\n');
			expect(readFileSync(victim, 'utf8')).toBe('precious\n');
		});

		it.runIf(ROOT)(
			'a folder of another user is refused, as is a shared folder whose vault-query belongs to them (root: chown to a spare uid)',
			() => {
				const theirs = folder('theirs', 0o700);
				chownSync(theirs, OTHER_UID, OTHER_UID);
				expect(safeCacheFolder(theirs).refused).toMatch(/belongs to another user \(uid 4242\)/);
				const shared = folder('shared', 0o1777);
				const planted = join(shared, 'vault-query');
				mkdirSync(planted, { mode: 0o700 });
				chownSync(planted, OTHER_UID, OTHER_UID);
				expect(safeCacheFolder(shared).refused).toMatch(/vault-query belongs to another user/);
			},
		);

		it.runIf(ROOT)('a call never talks to a socket another user owns: it answers on its own', async () => {
			const cache = folder('cache', 0o700);
			process.env.VAULT_QUERY_CACHE_DIR = cache;
			const { socketPathFor } = await import('../../src/cli/server/protocol');
			const { realpathSync } = await import('node:fs');
			const socketPath = socketPathFor(realpathSync(EXAMPLE_VAULT)) as string;
			let asked = 0;
			const forged = createServer((socket) => {
				asked++;
				socket.end(`${JSON.stringify({ stdout: ['\u001b]0;forged\u0007'], stderr: [], code: 0 })}\n`);
			});
			forged.listen(socketPath);
			await once(forged, 'listening');
			try {
				chownSync(socketPath, OTHER_UID, OTHER_UID);
				expect(foreignSocket(socketPath)).toMatch(/another user \(uid 4242\)/);
				const answer = await askServer(['tag', 'copilot', '--vault', EXAMPLE_VAULT], process.cwd(), {
					VAULT_QUERY_CACHE_DIR: cache,
				});
				expect(answer.kind).not.toBe('answered');
				expect(asked).toBe(0);
			} finally {
				forged.close();
			}
		});

		it.skipIf(ROOT)(
			'tests of another user’s folders and sockets need root here (chown to a spare uid); skipped as this user',
			() => {
				expect(ROOT).toBe(false);
			},
		);
	},
);
