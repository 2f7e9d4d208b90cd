/**
 * The CPU time of a Chromium's renderer processes, from /proc (Linux): each renderer's main
 * thread (its task with the process's id: the page's main thread) and the whole process (its
 * workers, the index worker among them, and V8's helper threads). A loaded machine inflates the
 * wall clock far more than these; elsewhere they are empty.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Renderer pid → CPU milliseconds of its main thread and of the whole process. */
export type RendererCpu = Record<string, { main: number; all: number }>;

/** A /proc stat line's fields after the command name (field 3 of proc(5) at index 0). */
function statFields(file: string): string[] | null {
	try {
		const stat = readFileSync(file, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	} catch {
		return null;
	}
}

/** utime + stime of a stat line's fields, in ms (ticks of 10 ms). */
function cpuMsOf(fields: string[]): number {
	return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The CPU of every renderer descending from `browserPid` (none without it, or off Linux). */
export function rendererCpu(browserPid: number | null): RendererCpu {
	const out: RendererCpu = {};
	if (browserPid === null) return out;
	let pids: string[];
	try {
		pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
	} catch {
		return out;
	}
	const parent = new Map<string, string>();
	for (const pid of pids) {
		const fields = statFields(`/proc/${pid}/stat`);
		if (fields) parent.set(pid, fields[1]!);
	}
	const descends = (pid: string): boolean => {
		for (let at: string | undefined = pid, hops = 0; at !== undefined && hops < 10; at = parent.get(at), hops++)
			if (at === String(browserPid)) return true;
		return false;
	};
	for (const pid of pids) {
		if (!descends(pid)) continue;
		let cmdline = '';
		try {
			cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
		} catch {
			continue;
		}
		if (!cmdline.includes('--type=renderer')) continue;
		const all = statFields(`/proc/${pid}/stat`);
		const main = statFields(`/proc/${pid}/task/${pid}/stat`);
		if (all && main) out[pid] = { main: cpuMsOf(main), all: cpuMsOf(all) };
	}
	return out;
}
