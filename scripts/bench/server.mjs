/**
 * The CLI's background server seen from a bench: its status, waiting until it is warm, stopping
 * it. Used by bench-snapshot.mjs and the first-contact job.
 */
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLI } from './lib.mjs';

/** The vault's server status (`server --status --json`, asked through `cli`), or null when none runs. */
export function serverStatus(vault, env, cli = CLI) {
	const run = spawnSync(process.execPath, [cli, 'server', '--status', '--vault', vault, '--json'], {
		env,
		encoding: 'utf8',
	});
	return JSON.parse(run.stdout).server;
}

/** Waits until the server is ready and its trigram index loaded or built (what a call finds a while after the first). */
export async function serverWarm(vault, env) {
	const until = Date.now() + 15 * 60_000;
	for (;;) {
		const status = serverStatus(vault, env);
		if (status?.ready && !status.handsOver && status.trigrams === 'ready') return status;
		if (Date.now() > until) throw new Error(`the server did not get warm: ${JSON.stringify(status)}`);
		await sleep(500);
	}
}

/** Stops the vault's server and waits until its process is gone (a save it was writing included). */
export async function stopServer(vault, env) {
	const pid = serverStatus(vault, env)?.pid;
	spawnSync(process.execPath, [CLI, 'server', '--stop', '--vault', vault], { env });
	for (let i = 0; pid !== undefined && i < 600; i++) {
		try {
			process.kill(pid, 0);
		} catch {
			return;
		}
		await sleep(100);
	}
}
