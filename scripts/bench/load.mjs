/**
 * Load (issue 13): twenty CLI processes at once on a generated 13,000-note vault
 * (scripts/gen-vault.mjs). Each answer must equal the same command run alone (exit code and
 * JSON output, timings and the build time aside; exit 2 never counts as correct); each process's
 * peak memory (max RSS) is reported.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateVault } from '../gen-vault.mjs';
import { CLI, fmtMs, printTable, say, verdict } from './lib.mjs';

const NOTES = 13_000;
const PROCESSES = 20;
const PROBE = pathToFileURL(join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, 'rss-probe.mjs')).href;
/** The commands the processes run, round robin: the four kinds of work (walk+parse, grep, rank, pack). */
const COMMANDS = [
	['backlinks', 'Home k0'],
	['grep', 'link'],
	['search', 'how to embed a note'],
	['pack', 'How do I link to a heading?'],
];

/** One CLI run: exit code, stdout, peak memory in MB, wall ms. */
function runCli(args, vault) {
	return new Promise((resolveRun) => {
		const started = performance.now();
		const child = spawn(process.execPath, ['--import', PROBE, CLI, ...args, '--vault', vault, '--json'], {
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let out = '';
		let err = '';
		child.stdout.on('data', (d) => (out += d));
		child.stderr.on('data', (d) => (err += d));
		child.on('close', (code) => {
			const rss = /vq-bench-maxrss-kb (\d+)/.exec(err);
			resolveRun({
				code,
				out,
				rssMb: rss ? Math.round(Number(rss[1]) / 1024) : null,
				ms: performance.now() - started,
			});
		});
	});
}

/** The answer without what legitimately differs between runs (timings, build dates). */
function stable(out) {
	return out.replace(/"[a-z_]*(?:ms|Ms|_at|At)": [^,\n]+/g, '"…": 0');
}

/** Run the load job. */
export async function benchLoad() {
	const vault = generateVault({ notes: NOTES });
	say(`  vault: ${vault} (${NOTES} notes)`);
	const reference = [];
	for (const args of COMMANDS) {
		const alone = await runCli(args, vault);
		reference.push({ code: alone.code, out: stable(alone.out) });
	}
	const started = performance.now();
	const runs = await Promise.all(
		Array.from({ length: PROCESSES }, (_, i) => runCli(COMMANDS[i % COMMANDS.length], vault)),
	);
	const wallMs = performance.now() - started;
	const rows = runs.map((r, i) => {
		const ref = reference[i % COMMANDS.length];
		return {
			command: COMMANDS[i % COMMANDS.length][0],
			code: r.code,
			same: r.code === ref.code && r.code !== 2 && stable(r.out) === ref.out,
			rssMb: r.rssMb,
			ms: Math.round(r.ms),
		};
	});
	const allSame = rows.every((r) => r.same);
	const peak = Math.max(...rows.map((r) => r.rssMb ?? 0));
	say('');
	printTable([
		['process', 'command', 'exit', 'same answer as alone', 'peak RSS', 'wall'],
		...rows.map((r, i) => [i + 1, r.command, r.code, r.same ? 'yes' : 'NO', `${r.rssMb} MB`, fmtMs(r.ms)]),
	]);
	say(
		`  ${PROCESSES} processes in ${fmtMs(wallMs)}; largest peak RSS ${peak} MB; every answer correct: ${verdict(allSame)}`,
	);
	return {
		notes: NOTES,
		processes: PROCESSES,
		wallMs: Math.round(wallMs),
		peakRssMb: peak,
		allCorrect: allSame,
		rows,
	};
}
