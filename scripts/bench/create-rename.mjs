/**
 * What one change to the vault costs the next call through the background server: a call with no
 * change, then one right after editing a note, creating one, renaming it and deleting it, on a
 * private copy of a generated vault (scripts/gen-vault.mjs; the copy and the cache folder are
 * removed at the end). Each row gives the call's wall time, the server's CPU time during the call
 * (from /proc, so a loaded machine moves it less than wall time) and the refresh time the server
 * logs. Callable on its own or from another bench job:
 *
 *   node scripts/bench/create-rename.mjs [--notes 13400] [--runs 5] [--cli dist/cli.mjs]
 */
import {
	appendFileSync,
	cpSync,
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

/** Run the job: returns one row per kind of change with medians over `runs`. */
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
		const start = call(); // Builds the snapshot and starts the server.
		if (start.status !== 0) throw new Error(`first call exited ${start.status}: ${start.stderr}`);
		const pid = await settledServer(cli, vault, env);
		for (let i = 0; i < 3; i++) call(); // The server's first calls warm its caches.
		const folder = join(vault, 'c0', 'obsidian-help-i18n');
		const edited = join(folder, 'README k0.md');
		const body = (i) => `# Bench ${i}\n\nSee [[${TARGET}]] and [[Bench missing ${i}]].\n\n#bench\n`;
		const changes = {
			'no change': () => undefined,
			'one note edited': (i) => appendFileSync(edited, `\nBench edit ${i}, see [[${TARGET}]].\n`),
			'one note created': (i) => writeFileSync(join(folder, `Bench new ${i}.md`), body(i)),
			'that note renamed': (i) =>
				renameSync(join(folder, `Bench new ${i}.md`), join(folder, `Bench moved ${i}.md`)),
			'that note deleted': (i) => unlinkSync(join(folder, `Bench moved ${i}.md`)),
		};
		const samples = Object.fromEntries(Object.keys(changes).map((k) => [k, { wall: [], server: [], refresh: [] }]));
		let logLines = lastRefresh(cache, 0).lines;
		for (let i = 0; i < runs; i++) {
			for (const [kind, change] of Object.entries(changes)) {
				change(i);
				const before = cpuOf(pid);
				const run = call();
				const after = cpuOf(pid);
				if (run.status !== 0) throw new Error(`${kind}: the call exited ${run.status}: ${run.stderr}`);
				const refresh = lastRefresh(cache, logLines);
				logLines = refresh.lines;
				samples[kind].wall.push(run.ms);
				if (before !== null && after !== null) samples[kind].server.push(after - before);
				if (refresh.ms !== null) samples[kind].refresh.push(refresh.ms);
			}
		}
		const base = median(samples['no change'].wall);
		const rows = Object.entries(samples).map(([kind, s]) => ({
			kind,
			wallMs: median(s.wall),
			overMs: median(s.wall) - base,
			serverCpuMs: s.server.length > 0 ? median(s.server) : null,
			refreshMs: s.refresh.length > 0 ? median(s.refresh) : null,
		}));
		say('');
		printTable([
			[
				'change, then backlinks',
				'call (median)',
				'over no change',
				'server CPU in the call',
				'refresh (server log)',
			],
			...rows.map((r) => [
				r.kind,
				fmtMs(r.wallMs),
				r.kind === 'no change' ? '' : `${r.overMs >= 0 ? '+' : ''}${fmtMs(r.overMs)}`,
				r.serverCpuMs === null ? 'n/a' : fmtMs(r.serverCpuMs),
				r.refreshMs === null ? '' : fmtMs(r.refreshMs),
			]),
		]);
		say(`  ${runs} runs each, load ${loadavg()[0].toFixed(2)} at the end`);
		return { notes, runs, rows };
	} finally {
		timeSpawn(process.execPath, [cli, 'server', '--stop', '--vault', vault], { env });
		rmSync(work, { recursive: true, force: true });
	}
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
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
