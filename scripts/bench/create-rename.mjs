/**
 * What one change to the vault costs the next call through the background server: a call with no
 * change, then one right after editing a note, creating one, renaming it and deleting it, in a
 * scratch folder of the vault. On its own it runs on a private copy of a generated vault
 * (scripts/gen-vault.mjs; the copy and the cache folder are removed at the end); the first-contact
 * job runs the same measurement ({@link measureChanges}) on its own vault and server. Each row
 * gives the call's wall time, the server's CPU time during the call (from /proc, so a loaded
 * machine moves it less than wall time) and the refresh time the server logs:
 *
 *   node scripts/bench/create-rename.mjs [--notes 13400] [--runs 5] [--cli dist/cli.mjs]
 */
import {
	appendFileSync,
	cpSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	readdirSync,
	renameSync,
	rmSync,
	unlinkSync,
	writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { generateVault } from '../gen-vault.mjs';
import { CLI, fmtMs, median, printTable, say, timeSpawn } from './lib.mjs';
import { serverStatus } from './server.mjs';

/** The note every changed note links to, and whose backlinks each call asks for. */
const TARGET = 'Home k0';

/** Ticks per second of /proc/<pid>/stat's utime and stime (100 on Linux). */
const TICK_MS = 10;

/** The server's user+system CPU time so far, ms (null when /proc cannot tell). */
function cpuOf(pid) {
	try {
		const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
		return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
	} catch {
		return null;
	}
}

/** The last refresh time the server logged, ms (null when it logged none since `from` lines). */
function lastRefresh(cache, from) {
	const log = readdirSync(cache).find((f) => f.endsWith('.log'));
	if (log === undefined) return { lines: 0, ms: null };
	const lines = readFileSync(join(cache, log), 'utf8').split('\n').slice(0, -1); // Each line ends in a newline.
	let ms = null;
	for (const line of lines.slice(from)) {
		const m = /refreshed: \d+ notes in (\d+) ms/.exec(line);
		if (m) ms = Number(m[1]);
	}
	return { lines: lines.length, ms };
}

/**
 * The pid of the vault's server once it is the one that stays: a server that built the vault from
 * scratch hands over to one started on the saved files, and the trigram index loads after ready.
 */
async function settledServer(cli, vault, env) {
	const deadline = Date.now() + 15 * 60_000;
	while (Date.now() < deadline) {
		const run = timeSpawn(process.execPath, [cli, 'server', '--status', '--vault', vault, '--json'], { env });
		const server = run.status === 0 ? JSON.parse(run.stdout).server : null;
		if (
			server?.ready === true &&
			server.handsOver === false &&
			['ready', 'failed', 'off'].includes(server.trigrams)
		)
			return server.pid;
		if (server === null) call0(cli, vault, env); // Between the two servers: a call starts the next.
		await sleep(1000);
	}
	throw new Error('the server did not settle within 15 minutes');
}

/** A call that starts the vault's server when none runs. */
function call0(cli, vault, env) {
	timeSpawn(process.execPath, [cli, 'tag', 'bench', '--vault', vault, '--json'], { env });
}

/** The folder the changes are made in (created first, removed at the end, so the vault is left as it was). */
const SCRATCH = 'create-rename-bench';

/**
 * The measurement itself, for this script and the first-contact job: on a vault whose server is
 * warm, `call()` (a CLI call through the server: `{ ms, cpuMs, status, stderr? }`, sync or async)
 * after no change, after appending to a note, creating one, renaming it and deleting it, `runs`
 * times each, in a scratch folder of the vault that is removed at the end. Returns one row per
 * kind of change: medians of the call's wall and CPU time, its wall time over the unchanged call,
 * the server's CPU time during the call (/proc) and the refresh time it logged.
 */
export async function measureChanges({ vault, env, call, runs = 5, cli = CLI }) {
	const cache = env.VAULT_QUERY_CACHE_DIR;
	const folder = join(vault, SCRATCH);
	const edited = join(folder, 'Edited note.md');
	const body = (i) => `# Bench ${i}\n\nSee [[${TARGET}]] and [[Bench missing ${i}]].\n\n#bench sync encryption\n`;
	const changes = {
		'no change': () => undefined,
		'one note edited': (i) => appendFileSync(edited, `\nBench edit ${i}, see [[${TARGET}]].\n`),
		'one note created': (i) => writeFileSync(join(folder, `Bench new ${i}.md`), body(i)),
		'that note renamed': (i) => renameSync(join(folder, `Bench new ${i}.md`), join(folder, `Bench moved ${i}.md`)),
		'that note deleted': (i) => unlinkSync(join(folder, `Bench moved ${i}.md`)),
	};
	const samples = Object.fromEntries(
		Object.keys(changes).map((k) => [k, { wall: [], cpu: [], server: [], refresh: [] }]),
	);
	try {
		rmSync(folder, { recursive: true, force: true }); // left by a run that was stopped
		mkdirSync(folder, { recursive: true });
		writeFileSync(edited, body('edited'));
		// The server sees the new folder and note, and its first calls warm its caches.
		for (let i = 0; i < 3; i++) await call();
		const pid = serverStatus(vault, env, cli)?.pid;
		if (pid === undefined) throw new Error('no server runs for the vault');
		let logLines = lastRefresh(cache, 0).lines;
		for (let i = 0; i < runs; i++) {
			for (const [kind, change] of Object.entries(changes)) {
				change(i);
				const before = cpuOf(pid);
				const run = await call();
				const after = cpuOf(pid);
				if (run.status !== 0) throw new Error(`${kind}: the call exited ${run.status}: ${run.stderr ?? ''}`);
				const refresh = lastRefresh(cache, logLines);
				logLines = refresh.lines;
				samples[kind].wall.push(run.ms);
				if (run.cpuMs !== null && run.cpuMs !== undefined) samples[kind].cpu.push(run.cpuMs);
				if (before !== null && after !== null) samples[kind].server.push(after - before);
				if (refresh.ms !== null) samples[kind].refresh.push(refresh.ms);
			}
		}
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
	const mid = (list) => (list.length > 0 ? Math.round(median(list)) : null);
	const base = mid(samples['no change'].wall);
	return Object.entries(samples).map(([kind, s]) => ({
		kind,
		wallMs: mid(s.wall),
		overMs: mid(s.wall) - base,
		cpuMs: mid(s.cpu),
		serverCpuMs: mid(s.server),
		refreshMs: mid(s.refresh),
	}));
}

/** A difference of times with its sign: `+42.0 ms`, `-1.20 s`. */
export const signedMs = (ms) => `${ms < 0 ? '-' : '+'}${fmtMs(Math.abs(ms))}`;

/** Prints the rows of {@link measureChanges} as a table, headed by what each call was. */
export function printChanges(rows, callName) {
	printTable([
		[
			`change, then ${callName}`,
			'call (median)',
			'over no change',
			'server CPU in the call',
			'refresh (server log)',
		],
		...rows.map((r) => [
			r.kind,
			fmtMs(r.wallMs),
			r.kind === 'no change' ? '' : signedMs(r.overMs),
			r.serverCpuMs === null ? 'n/a' : fmtMs(r.serverCpuMs),
			r.refreshMs === null ? '' : fmtMs(r.refreshMs),
		]),
	]);
}

/** Run the job on a private copy of the generated vault: returns one row per kind of change with medians over `runs`. */
export async function benchCreateRename({ notes = 13_400, runs = 5, cli = CLI } = {}) {
	const source = generateVault({ notes });
	const work = mkdtempSync(join(tmpdir(), 'vq-create-rename-'));
	const vault = join(work, 'vault');
	const cache = join(work, 'cache');
	const env = { ...process.env, VAULT_QUERY_CACHE_DIR: cache, VAULT_QUERY_SERVER_IDLE_MINUTES: '5' };
	delete env.VAULT_QUERY_SERVER;
	const call = () =>
		timeSpawn(process.execPath, [cli, 'backlinks', TARGET, '--vault', vault, '--json'], { env, cpu: true });
	try {
		cpSync(source, vault, { recursive: true });
		say(`  vault: copy of ${source} (${notes} notes) in ${work}`);
		const start = call(); // Builds the snapshot and starts the server (1: no backlinks yet, on a small vault).
		if (start.status !== 0 && start.status !== 1)
			throw new Error(`first call exited ${start.status}: ${start.stderr}`);
		await settledServer(cli, vault, env);
		const rows = await measureChanges({ vault, env, call, runs, cli });
		say('');
		printChanges(rows, 'backlinks');
		say(`  ${runs} runs each, load ${loadavg()[0].toFixed(2)} at the end`);
		return { notes, runs, rows };
	} finally {
		timeSpawn(process.execPath, [cli, 'server', '--stop', '--vault', vault], { env });
		rmSync(work, { recursive: true, force: true });
	}
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
	const arg = (name) => {
		const i = process.argv.indexOf(name);
		return i >= 0 ? process.argv[i + 1] : undefined;
	};
	await benchCreateRename({
		notes: Number(arg('--notes') ?? 13_400),
		runs: Number(arg('--runs') ?? 5),
		cli: arg('--cli') === undefined ? CLI : resolve(arg('--cli')),
	});
}
