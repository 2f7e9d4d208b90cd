/**
 * Starting a vault's background server after a call that found none: detached, so it outlives
 * the call; its log beside its socket (private, rewritten at each start), because a server that
 * fails must be able to say why to someone who looks.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, renameSync } from 'node:fs';
import { makeCacheFolder } from '../../node/snapshot/cache-dir';
import { tmpdir } from 'node:os';
import { dirname } from 'node:path';
import { writeServerPid } from './pid-file';
import { socketPathFor } from './protocol';

/** Set in the environment of a server this module started (only such a server starts its own successor). */
export const SPAWNED_ENV = 'VAULT_QUERY_SERVER_SPAWNED';

/** Minutes without a call before a started server stops (default: the server's own, 10). */
export const IDLE_ENV = 'VAULT_QUERY_SERVER_IDLE_MINUTES';

/** Where the server of the vault at `vaultRealPath` logs, or null when it has no socket. */
export function serverLogPath(vaultRealPath: string): string | null {
	const socket = socketPathFor(vaultRealPath);
	return socket === null ? null : socket.replace(/\.sock$/, '.log');
}

/** Starts the server of the vault at `vaultRealPath` in the background; a failure to start costs nothing but the warm path. */
export function startServer(vaultRealPath: string, entry: string | undefined = process.argv[1]): void {
	const log = serverLogPath(vaultRealPath);
	if (log === null || entry === undefined) return;
	let fd: number | null = null;
	try {
		makeCacheFolder(dirname(log));
		// A new file renamed over the log: a symbolic link planted at its name is replaced, never written through.
		const temp = `${log}.${process.pid}.tmp`;
		fd = openSync(temp, 'wx', 0o600);
		renameSync(temp, log);
		// why: the server's working folder is not the caller's, so it never holds a folder someone wants to remove or unmount.
		const idle = process.env[IDLE_ENV];
		const idleArgs = idle !== undefined && /^[0-9]{1,5}$/.test(idle) ? ['--idle-minutes', idle] : [];
		const child = spawn(process.execPath, [entry, 'server', '--vault', vaultRealPath, ...idleArgs], {
			detached: true,
			stdio: ['ignore', fd, fd],
			cwd: tmpdir(),
			env: { ...process.env, [SPAWNED_ENV]: '1' },
		});
		child.on('error', () => undefined);
		// At once, before the server has loaded a module: `server --stop` can reach it while it starts.
		if (child.pid !== undefined) writeServerPid(vaultRealPath, child.pid);
		child.unref();
	} catch {
		// No server: the next call reads the snapshot itself, as this one did.
	} finally {
		if (fd !== null) closeSync(fd);
	}
}
