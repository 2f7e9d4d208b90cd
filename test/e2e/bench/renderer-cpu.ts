/**
 * The CPU time and page faults of a Chromium's renderer processes, from /proc (Linux): each
 * renderer's main thread (its task with the process's id: the page's main thread) and the whole
 * process (its workers, the index worker among them, and V8's helper threads; a thread that has
 * ended still counts there, as it does not in a listing of the live ones). A loaded machine
 * inflates the wall clock far more than these; elsewhere they are empty. Page faults are counted
 * because touching fresh memory costs some machines far more than others (fresh-pages.ts): a
 * phase's faults say how much of its CPU went to the kernel's mapping of pages.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** CPU milliseconds and minor page faults so far. */
export interface CpuUse {
	cpuMs: number;
	faults: number;
}

/** Renderer pid → the CPU and page faults of its main thread and of the whole process. */
export type RendererCpu = Record<string, { main: CpuUse; all: CpuUse }>;

/** A /proc stat line's fields after the command name (field 3 of proc(5) at index 0). */
function statFields(file: string): string[] | null {
	try {
		const stat = readFileSync(file, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	} catch {
		return null;
	}
}

/** utime + stime (ticks of 10 ms) and minflt of a stat file, or null when it cannot be read. */
function useOf(file: string): CpuUse | null {
	const fields = statFields(file);
	return fields === null
		? null
		: { cpuMs: (Number(fields[11]) + Number(fields[12])) * 10, faults: Number(fields[7]) };
}

/** The CPU and page faults of process `pid` (all its threads, ended ones included), or of its thread `tid`; null when gone, or off Linux. */
export function cpuUse(pid: number | string, tid?: number | string): CpuUse | null {
	return useOf(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`);
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
		const all = cpuUse(pid);
		const main = cpuUse(pid, pid);
		if (all && main) out[pid] = { main, all };
	}
	return out;
}
