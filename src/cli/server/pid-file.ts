/**
 * The pid file beside a vault server's socket: how `server --stop` reaches a server that cannot
 * answer its socket — one still starting (the call that spawns a server writes the file at once,
 * before the server has loaded a module), or one inside a long synchronous read. A pid is
 * signalled only while that process's command line is a vault-query server of this very vault,
 * so a stale file whose pid now belongs to another program never stops it.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { socketPathFor } from './protocol';

/** Where the server of the vault at `vaultRealPath` keeps its pid, or null when it has no socket. */
export function serverPidPath(vaultRealPath: string): string | null {
	const socket = socketPathFor(vaultRealPath);
	return socket === null ? null : socket.replace(/\.sock$/, '.pid');
}

/** Records `pid` as the vault's server (private, like the socket); best effort: without it only the fallback of `--stop` is lost. */
export function writeServerPid(vaultRealPath: string, pid: number): void {
	const path = serverPidPath(vaultRealPath);
	if (path === null) return;
	try {
		replaceFile(path, `${pid}\n`);
	} catch {
		// The cache folder is not writable: there is no server either.
	}
}

/**
 * Writes `path` as a new private file: a fresh temporary file (`wx` never opens an existing one,
 * nor follows a link) renamed over the name, so a symbolic link planted there is replaced, never written through.
 */
export function replaceFile(path: string, text: string): void {
	const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
	writeFileSync(temp, text, { mode: 0o600, flag: 'wx' });
	try {
		renameSync(temp, path);
	} catch (error) {
		unlinkSync(temp);
		throw error;
	}
}

/** The pid the file names, or null. */
export function readServerPid(vaultRealPath: string): number | null {
	const path = serverPidPath(vaultRealPath);
	if (path === null) return null;
	try {
		const pid = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
		return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
	} catch {
		return null;
	}
}

/** Removes the file when it still names `pid` (a successor may have written its own). */
export function forgetServerPid(vaultRealPath: string, pid: number): void {
	const path = serverPidPath(vaultRealPath);
	if (path === null || readServerPid(vaultRealPath) !== pid) return;
	try {
		unlinkSync(path);
	} catch {
		// Already gone.
	}
}

/** A process's command line, its arguments joined by spaces, or null when there is no such process. */
function commandLineOf(pid: number): string | null {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
	} catch {
		// No /proc (macOS): ask ps.
	}
	const ps = spawnSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8', timeout: 5000 });
	return ps.status === 0 && ps.stdout.trim() !== '' ? ps.stdout.trim() : null;
}

/**
 * The pid of the vault's server named in its pid file when that process runs and is one (its
 * command line holds `server --vault <vault>`, as `startServer` spawns it), else null.
 */
export function runningServerPid(vaultRealPath: string): number | null {
	const pid = readServerPid(vaultRealPath);
	if (pid === null || pid === process.pid) return null;
	const command = commandLineOf(pid);
	const served = ` server --vault ${vaultRealPath}`;
	return command !== null && (command.endsWith(served) || command.includes(`${served} `)) ? pid : null;
}

/** Sends SIGTERM to the vault's server named in its pid file (see runningServerPid); the pid signalled, or null. */
export function signalServer(vaultRealPath: string): number | null {
	const pid = runningServerPid(vaultRealPath);
	if (pid === null) return null;
	try {
		process.kill(pid, 'SIGTERM');
		return pid;
	} catch {
		return null;
	}
}

/** Whether process `pid` exists. */
function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

/** Whether process `pid` is gone within `ms`. */
export async function exited(pid: number, ms: number): Promise<boolean> {
	for (const end = Date.now() + ms; Date.now() < end; await sleep(50)) {
		if (!alive(pid)) return true;
	}
	return !alive(pid);
}

/** SIGKILL, ignoring a process already gone. */
export function killQuietly(pid: number): void {
	try {
		process.kill(pid, 'SIGKILL');
	} catch {
		// Gone meanwhile.
	}
}
