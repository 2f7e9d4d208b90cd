/**
 * clock-ok-file: a benchmark; it prints figures and asserts nothing.
 * The full answer (`--limit 100000`, every match, as rg gives) of grep and text-search through the
 * warm background server, beside rg: wall, CPU (user + sys) of the call and of the server, the
 * call's peak RSS (`/usr/bin/time`, when present) and the server's (its VmHWM, reset before each
 * call through /proc/<pid>/clear_refs; Linux only). The answer goes to /dev/null, as rg's does.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { CLI, median } from './lib.mjs';

const TIME = '/usr/bin/time';

/** Clock ticks per second of /proc/<pid>/stat's CPU fields. */
const TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** The server's CPU (ms, user + sys) and peak RSS (MB) so far, or nulls off Linux. */
function serverUsage(pid) {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		const cpuMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
		const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
		return { cpuMs, peakMB: hwm ? Math.round(Number(hwm[1]) / 1024) : null };
	} catch {
		return { cpuMs: null, peakMB: null };
	}
}

/** Reset the server's peak RSS (Linux: clear_refs 5), so the next reading is this call's peak. */
function resetPeak(pid) {
	try {
		writeFileSync(`/proc/${pid}/clear_refs`, '5');
	} catch {
		// Not Linux, or not allowed: the peak read is then the server's since it started.
	}
}

/** One command with its output to /dev/null: wall ms, CPU ms (user + sys, bash `times`), peak RSS MB when /usr/bin/time exists. */
function timed(cmd, args, env) {
	const timeFile = join(tmpdir(), `vq-full-answer-${process.pid}.txt`);
	const inner = existsSync(TIME) ? [TIME, '-o', timeFile, '-f', '%M', cmd, ...args] : [cmd, ...args];
	const start = performance.now();
	const child = spawnSync('bash', ['-c', '"$@" > /dev/null; s=$?; times >&2; exit $s', 'bash', ...inner], {
		encoding: 'utf8',
		env,
	});
	const ms = performance.now() - start;
	const lines = child.stderr.trimEnd().split('\n');
	const [user, system] = (lines.pop() ?? '').split(' ');
	const clock = (t) => {
		const m = /^(\d+)m([\d.]+)s$/.exec(t ?? '');
		return m ? (Number(m[1]) * 60 + Number(m[2])) * 1000 : 0;
	};
	let peakMB = null;
	if (existsSync(timeFile)) {
		peakMB = Math.round(Number(readFileSync(timeFile, 'utf8').trim().split('\n').pop()) / 1024);
		rmSync(timeFile, { force: true });
	}
	return { status: child.status, ms, cpuMs: clock(user) + clock(system), peakMB };
}

/** The running server's pid from `server --status`, or null. */
function serverPid(vault, env) {
	const status = spawnSync(process.execPath, [CLI, 'server', '--status', '--vault', vault], {
		encoding: 'utf8',
		env,
	});
	const pid = /pid (\d+)/.exec(status.stdout);
	return pid ? { pid: Number(pid[1]), ready: /trigram index ready/.test(status.stdout) } : null;
}

/**
 * The full-answer job: a private cache, a server started by the first call and waited for until
 * its trigram index is ready, then `runs` rounds of rg (when installed) and each of our commands.
 */
export function benchFullAnswer({ vault, pattern, runs, rg }) {
	const cache = mkdtempSync(join(tmpdir(), 'vq-full-answer-'));
	const env = { ...process.env, VAULT_QUERY_CACHE_DIR: cache };
	const schema = join(cache, 'schema.md');
	writeFileSync(schema, '# Schema\n\n```yaml\nfields:\n  status: [active, archived]\n```\n');
	const commands = {
		'grep (text)': ['grep', pattern, '--limit', '100000'],
		'grep --json': ['grep', pattern, '--limit', '100000', '--json'],
		'text-search (text)': ['text-search', pattern, '--limit', '100000', '--schema', schema],
		'text-search --json': ['text-search', pattern, '--limit', '100000', '--schema', schema, '--json'],
	};
	try {
		// The first call starts the server (and is answered by it); then wait for the trigram index.
		timed(process.execPath, [CLI, 'grep', pattern, '--vault', vault], env);
		let server = null;
		for (let i = 0; i < 600 && !(server = serverPid(vault, env))?.ready; i++) spawnSync('sleep', ['1']);
		if (server === null) throw new Error('full answer: the background server did not start');
		const rows = {};
		const record = (name, run, usage) => {
			rows[name] ??= { wallMs: [], cpuMs: [], peakMB: [], serverCpuMs: [], serverPeakMB: [] };
			rows[name].wallMs.push(run.ms);
			rows[name].cpuMs.push(run.cpuMs);
			rows[name].peakMB.push(run.peakMB);
			rows[name].serverCpuMs.push(usage?.cpuMs ?? null);
			rows[name].serverPeakMB.push(usage?.peakMB ?? null);
		};
		for (let i = 0; i < runs; i++) {
			if (rg) record('rg', timed('rg', rg.args, env), null);
			for (const [name, args] of Object.entries(commands)) {
				resetPeak(server.pid);
				const before = serverUsage(server.pid);
				const run = timed(process.execPath, [CLI, ...args, '--vault', vault], env);
				if (run.status !== 0) throw new Error(`vault-query ${args.join(' ')} exited ${String(run.status)}`);
				const after = serverUsage(server.pid);
				record(name, run, {
					cpuMs: after.cpuMs === null ? null : after.cpuMs - before.cpuMs,
					peakMB: after.peakMB,
				});
			}
		}
		spawnSync(process.execPath, [CLI, 'server', '--stop', '--vault', vault], { env });
		const mid = (list) => (list.some((x) => x === null) ? null : Math.round(median(list)));
		const out = {};
		for (const [name, row] of Object.entries(rows)) {
			const totalCpu = row.serverCpuMs.some((x) => x === null)
				? null
				: Math.round(median(row.cpuMs.map((c, i) => c + row.serverCpuMs[i])));
			out[name] = {
				wallMedianMs: mid(row.wallMs),
				callCpuMedianMs: mid(row.cpuMs),
				callPeakMB: mid(row.peakMB),
				...(name === 'rg'
					? {}
					: { serverCpuMedianMs: mid(row.serverCpuMs), serverPeakMB: mid(row.serverPeakMB) }),
				totalCpuMedianMs: name === 'rg' ? mid(row.cpuMs) : totalCpu,
			};
		}
		const rgRow = out.rg;
		if (rgRow)
			for (const [name, row] of Object.entries(out))
				if (name !== 'rg')
					Object.assign(row, {
						wallVsRg: Math.round((row.wallMedianMs / rgRow.wallMedianMs) * 10) / 10,
						cpuVsRg:
							row.totalCpuMedianMs === null
								? null
								: Math.round((row.totalCpuMedianMs / rgRow.totalCpuMedianMs) * 10) / 10,
					});
		return { pattern, commands: out, target: '<= 2x rg wall and CPU (call + server) for the full answer' };
	} finally {
		spawnSync(process.execPath, [CLI, 'server', '--stop', '--vault', vault], { env });
		rmSync(cache, { recursive: true, force: true });
	}
}
