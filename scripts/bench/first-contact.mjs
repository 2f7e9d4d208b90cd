/**
 * First contact (`npm run bench -- --only first-contact [--sizes 13400,50000]`): the first minute
 * on a vault nobody has indexed, for a person at the CLI and for an agent over MCP, on generated
 * vaults (scripts/gen-vault.mjs; 13,400 and 50,000 notes by default) written to this job's own
 * folders under os.tmpdir() — the job creates and renames notes in them, so it never touches a
 * vault another bench reads. Each cache is a fresh folder under os.tmpdir()
 * (VAULT_QUERY_CACHE_DIR), outside the vault, removed at the end. Per vault, in one run:
 *
 * - `search "sync encryption" --no-cache`: the cold process, every note read and indexed, nothing saved;
 * - MiniSearch configured as Omnisearch (omnisearch-cold.mjs), a cold process that walks, reads,
 *   indexes and answers the same query (below 25k notes: its targets are the 13.4k vault's);
 * - the same `search` from an empty cache with the background server on, as a user has it: calls
 *   1 and 2 started at once, call 3 two seconds after both answered; their answers must equal the
 *   cold one's;
 * - the server's peak resident memory (VmHWM of every server process of the vault, sampled every
 *   250 ms, so a server that hands over to a successor counts too);
 * - once the server is warm: the same call after a note is edited, created, renamed and deleted,
 *   against the same call with nothing changed (medians of 3; create-rename.mjs's measurement);
 * - `vault-query mcp` from an empty cache: connected, then the first `search` answered, from spawn.
 *
 * Every process is timed from outside (Node's start included) with its user+system CPU time,
 * which moves far less than wall time when other work holds the cores; the table gives both.
 *
 * clock-ok-file: a benchmark; it prints and asserts nothing.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { generateVault } from '../gen-vault.mjs';
import { CLI, fmtMs, printTable, ROOT, say } from './lib.mjs';
import { measureChanges, printChanges, signedMs } from './create-rename.mjs';
import { serverWarm, stopServer } from './server.mjs';

/** The vault sizes measured unless `--sizes` names others. */
export const FIRST_CONTACT_SIZES = [13_400, 50_000];
/** The query every process answers. */
const QUERY = 'sync encryption';
const SEARCH = ['search', QUERY];
/** From this many notes a vault is held to the large vault's targets (the 50k ones). */
const LARGE = 25_000;

/** `13400` → "13.4k". */
export const vaultLabel = (notes) => `${(notes / 1000).toFixed(1).replace(/\.0$/, '')}k`;

/** `times` output: `0m1.206s` → ms. */
function clockMs(text) {
	const m = /^(\d+)m([\d.]+)s$/.exec(text);
	return m ? (Number(m[1]) * 60 + Number(m[2])) * 1000 : NaN;
}

/** Runs `node args` to completion without blocking the bench: wall ms, user+system CPU ms of the process, status, output. */
function run(args, env) {
	return new Promise((resolve, reject) => {
		const start = performance.now();
		const child = spawn('bash', ['-c', '"$@"; s=$?; times >&2; exit $s', 'bash', process.execPath, ...args], {
			env,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk) => (stdout += chunk));
		child.stderr.on('data', (chunk) => (stderr += chunk));
		child.on('error', reject);
		child.on('close', (status) => {
			const ms = performance.now() - start;
			const lines = stderr.trimEnd().split('\n');
			const [user, system] = (lines.pop() ?? '').split(' ');
			lines.pop(); // bash's own times
			if (status !== 0 && status !== 1) {
				reject(new Error(`node ${args.join(' ')} exited ${status}: ${lines.join('\n').slice(-2000)}`));
				return;
			}
			resolve({ ms: Math.round(ms), cpuMs: Math.round(clockMs(user) + clockMs(system)), status, stdout });
		});
	});
}

/** A CLI call on `vault`. */
const cli = (args, vault, env) => run([CLI, ...args, '--vault', vault], env);

/** Peak resident memory (VmHWM) of a live process in MB, or null. */
function peakMb(pid) {
	try {
		const status = readFileSync(`/proc/${pid}/status`, 'utf8');
		return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]) / 1024);
	} catch {
		return null;
	}
}

/** User+system CPU of a live process in ms (Linux), or null. */
function cpuMsOf(pid) {
	try {
		const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
		return Math.round(((Number(fields[11]) + Number(fields[12])) * 1000) / 100);
	} catch {
		return null;
	}
}

/**
 * Watches the server processes of a cache folder (their pid files) every 250 ms; `stop()` gives
 * the largest VmHWM seen, each pid's last CPU time, and how many servers there were.
 */
function watchServers(cache) {
	const peaks = new Map();
	const cpu = new Map();
	const look = () => {
		let files = [];
		try {
			files = readdirSync(cache, { recursive: true }).filter((f) => String(f).endsWith('.pid'));
		} catch {
			return;
		}
		for (const file of files) {
			const pid = Number.parseInt(readFileSync(join(cache, String(file)), 'utf8'), 10);
			const peak = Number.isSafeInteger(pid) ? peakMb(pid) : null;
			if (peak === null) continue;
			peaks.set(pid, Math.max(peaks.get(pid) ?? 0, peak));
			cpu.set(pid, cpuMsOf(pid) ?? cpu.get(pid) ?? 0);
		}
	};
	let watching = true;
	const loop = (async () => {
		while (watching) {
			look();
			await sleep(250);
		}
	})();
	return {
		/** The CPU time the servers have used so far. */
		cpuNow() {
			look();
			return [...cpu.values()].reduce((a, b) => a + b, 0);
		},
		async stop() {
			watching = false;
			await loop;
			look();
			return {
				peakMb: Math.max(0, ...peaks.values()),
				servers: peaks.size,
				cpuMs: [...cpu.values()].reduce((a, b) => a + b, 0),
			};
		},
	};
}

/** The answer without its timing footer, so two answers of the same query compare equal. */
const answerOf = (stdout) =>
	stdout
		.split('\n')
		.filter((line) => !/\b\d+(\.\d+)? ?m?s\b/.test(line))
		.join('\n');

/** `vault-query mcp` from an empty cache: ms from spawn to connected and to the first `search` answered, its peak memory. */
async function firstMcpSearch(vault, env) {
	const started = performance.now();
	const transport = new StdioClientTransport({
		command: process.execPath,
		args: [CLI, 'mcp', '--vault', vault],
		env,
		stderr: 'pipe',
	});
	transport.stderr?.on('data', () => {});
	const client = new Client({ name: 'vault-query-bench', version: '1.0.0' });
	try {
		await client.connect(transport, { timeout: 30 * 60_000 });
		const connectedMs = Math.round(performance.now() - started);
		const result = await client.callTool(
			{ name: 'search', arguments: { query: QUERY } },
			{ timeout: 30 * 60_000, resetTimeoutOnProgress: true },
		);
		const searchMs = Math.round(performance.now() - started);
		if (result.isError) throw new Error(`mcp search failed: ${JSON.stringify(result.content).slice(0, 300)}`);
		const pid = transport.pid;
		return {
			connectedMs,
			searchMs,
			peakMb: pid === null ? null : peakMb(pid),
			cpuMs: pid === null ? null : cpuMsOf(pid),
		};
	} finally {
		await client.close();
	}
}

/** Every figure for one vault size. */
async function benchSize(notes) {
	const label = vaultLabel(notes);
	say(`… first contact, ${label}: generating the vault (once; reused after)`);
	const vault = generateVault({ notes, out: join(tmpdir(), `vq-first-contact-${notes}`) });
	const caches = [];
	const freshCache = () => {
		const dir = mkdtempSync(join(tmpdir(), 'vq-first-contact-cache-'));
		caches.push(dir);
		return dir;
	};
	const off = { ...process.env, VAULT_QUERY_SERVER: 'off', VAULT_QUERY_CACHE_DIR: freshCache() };
	const on = { ...process.env, VAULT_QUERY_SERVER: 'on', VAULT_QUERY_CACHE_DIR: freshCache() };
	const out = { notes, label, vault, load: { start: loadavg()[0] } };
	let servers = null;
	try {
		say(`… ${label}: search --no-cache (cold process)`);
		const cold = await cli([...SEARCH, '--no-cache'], vault, off);
		out.noCache = { ms: cold.ms, cpuMs: cold.cpuMs };
		say(`  ${fmtMs(cold.ms)} (CPU ${fmtMs(cold.cpuMs)})`);

		// The peer is a target at 13.4k notes only; at 50k it would add minutes of a core for no row.
		if (notes < LARGE) {
			say(`… ${label}: MiniSearch as Omnisearch, cold process`);
			const peer = await run([join(ROOT, 'scripts', 'bench', 'omnisearch-cold.mjs'), vault, QUERY], off);
			out.miniSearch = { ms: peer.ms, cpuMs: peer.cpuMs, answer: JSON.parse(peer.stdout) };
			say(`  ${fmtMs(peer.ms)} (CPU ${fmtMs(peer.cpuMs)})`);
		}

		say(`… ${label}: the same search three times from an empty cache, the server on`);
		servers = watchServers(on.VAULT_QUERY_CACHE_DIR);
		// The servers' CPU when call 1 answers: the build it waited for, without what they do after.
		const [call1, call2] = await Promise.all([
			cli(SEARCH, vault, on).then((r) => ({ ...r, serverCpuMs: servers.cpuNow() })),
			cli(SEARCH, vault, on),
		]);
		await sleep(2000);
		const call3 = await cli(SEARCH, vault, on);
		const calls = [call1, call2, call3];
		out.calls = calls.map(({ ms, cpuMs }) => ({ ms, cpuMs }));
		out.serverCpuAtCall1Ms = call1.serverCpuMs;
		out.sameAnswers = calls.every((c) => answerOf(c.stdout) === answerOf(cold.stdout));
		say(`  ${calls.map((c) => fmtMs(c.ms)).join(', ')}; answers equal the cold one: ${out.sameAnswers}`);

		say(`… ${label}: create / rename a note, then the same call (the server warm)`);
		await serverWarm(vault, on);
		out.createRename = await measureChanges({ vault, env: on, call: () => cli(SEARCH, vault, on), runs: 3 });
		printChanges(out.createRename, '`search`');
		out.server = await servers.stop();
		servers = null;
		say(`  server peak ${out.server.peakMb} MB over ${out.server.servers} process(es)`);
		await stopServer(vault, on);

		say(`… ${label}: vault-query mcp from an empty cache, its first search`);
		out.mcp = await firstMcpSearch(vault, { ...off, VAULT_QUERY_CACHE_DIR: freshCache() });
		say(`  connected ${fmtMs(out.mcp.connectedMs)}, first search ${fmtMs(out.mcp.searchMs)}`);
	} finally {
		await servers?.stop();
		await stopServer(vault, on).catch(() => undefined);
		for (const dir of caches) rmSync(dir, { recursive: true, force: true });
	}
	out.load.end = loadavg()[0];
	out.targets = targetsOf(out);
	return out;
}

/** `a / b` as "0.84×". */
const times = (a, b) => `${(a / b).toFixed(2)}×`;
/** Wall and CPU as "6.40 s (CPU 5.10 s)". */
const both = (r) => `${fmtMs(r.ms)} (CPU ${fmtMs(r.cpuMs)})`;

/** The targets for one vault: what, goal, figure, met. */
function targetsOf(r) {
	const large = r.notes >= LARGE;
	const [c1, c2, c3] = r.calls;
	const rows = [];
	const row = (what, goal, figure, ok) => rows.push({ what, vault: r.label, goal, figure, ok });
	row(
		'first call from an empty cache, over `--no-cache`',
		'≤ 1.2×',
		`${times(c1.ms, r.noCache.ms)}: ${both(c1)} against ${both(r.noCache)}`,
		c1.ms <= 1.2 * r.noCache.ms,
	);
	if (large) {
		const slowest = Math.max(c2.ms, c3.ms);
		row(
			'no call slower than the first',
			'calls 2 and 3 ≤ call 1',
			`${fmtMs(c2.ms)} and ${fmtMs(c3.ms)} against ${fmtMs(c1.ms)}`,
			slowest <= c1.ms,
		);
		row('the server process, peak memory', '≤ 700 MB', `${r.server.peakMb} MB`, r.server.peakMb <= 700);
		row(
			'first MCP `search` from spawn, over a cold CLI `search`',
			'≤ 1.2×',
			`${times(r.mcp.searchMs, r.noCache.ms)}: ${fmtMs(r.mcp.searchMs)} against ${fmtMs(r.noCache.ms)}`,
			r.mcp.searchMs <= 1.2 * r.noCache.ms,
		);
	} else {
		row('second call (started with the first)', '≤ call 1', `${both(c2)} against ${fmtMs(c1.ms)}`, c2.ms <= c1.ms);
		row('third call (2 s after)', '≤ 0.4 s', both(c3), c3.ms <= 400);
	}
	const limit = large ? 250 : 100;
	const kind = (name) => r.createRename.find((c) => c.kind === name);
	const [unchanged, created, renamed] = ['no change', 'one note created', 'that note renamed'].map(kind);
	row(
		'the next call after a note is created / renamed',
		`≤ +${limit} ms`,
		`${signedMs(created.overMs)} / ${signedMs(renamed.overMs)} (over ${fmtMs(unchanged.wallMs)})`,
		Math.max(created.overMs, renamed.overMs) <= limit,
	);
	if (!large) {
		row(
			'first `search`, over MiniSearch as Omnisearch cold',
			'≤ 1.0×',
			`${times(c1.ms, r.miniSearch.ms)} (CPU ${times(c1.cpuMs + r.serverCpuAtCall1Ms, r.miniSearch.cpuMs)} with the server's): ${fmtMs(c1.ms)} against ${both(r.miniSearch)}`,
			c1.ms <= r.miniSearch.ms,
		);
		row(
			'`search --no-cache`, over MiniSearch as Omnisearch cold',
			'≤ 0.7×',
			`${times(r.noCache.ms, r.miniSearch.ms)} (CPU ${times(r.noCache.cpuMs, r.miniSearch.cpuMs)})`,
			r.noCache.ms <= 0.7 * r.miniSearch.ms,
		);
	}
	return rows;
}

/** The job: every size, then one table of every target with its verdict. */
export async function benchFirstContact({ sizes }) {
	const list = sizes === null || sizes === undefined ? FIRST_CONTACT_SIZES : sizes.split(',').map(Number);
	const results = [];
	for (const notes of list) results.push(await benchSize(notes));
	say('\nfirst contact: every target, this run');
	printTable([
		['Target', 'Vault', 'Goal', 'Figure', 'Verdict'],
		...results.flatMap((r) => r.targets.map((t) => [t.what, t.vault, t.goal, t.figure, t.ok ? 'met' : 'NOT MET'])),
	]);
	for (const r of results)
		say(
			`${r.label}: load ${r.load.start.toFixed(1)} → ${r.load.end.toFixed(1)}; MCP connected after ${fmtMs(r.mcp.connectedMs)}, peak ${r.mcp.peakMb} MB; answers of the three calls equal the cold one: ${r.sameAnswers}`,
		);
	return { query: QUERY, results, targets: results.flatMap((r) => r.targets) };
}
