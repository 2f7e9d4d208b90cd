/**
 * The Chromium bench's figures: each load's phases (bench-monitor.ts) with the renderer's CPU over
 * each (renderer-cpu.ts, read at the page's marks), the headline figures over both loads, and
 * their text form.
 */
import type { Phase } from '../harness/bench-monitor';
import type { TaskCollections } from './gc-trace';
import type { RendererCpu } from './renderer-cpu';

/** What a load's page posted (bench-entry.ts). */
export interface LoadFigures {
	load: string;
	notes?: number;
	markdown_bytes?: number;
	phases?: Phase[];
	errors: string[];
	[key: string]: unknown;
}

/** A phase with the renderer's CPU and minor page faults over it: its main thread's and the whole process's (the worker's included); null where not read. */
type CpuPhase = Phase & {
	main_thread_cpu_ms: number | null;
	process_cpu_ms: number | null;
	main_thread_page_faults: number | null;
	process_page_faults: number | null;
};

/** `to - from`, or null when either is missing. */
function grew(from: number | undefined, to: number | undefined): number | null {
	return from === undefined || to === undefined ? null : to - from;
}

/** The renderer that ran the page: the one with the most CPU at the load's last mark. */
function pageRenderer(cpu: Record<string, RendererCpu>): string | null {
	const last = Object.values(cpu).at(-1) ?? {};
	const best = Object.entries(last).sort((a, b) => b[1].all.cpuMs - a[1].all.cpuMs)[0];
	return best?.[0] ?? null;
}

/** The load's phases with their CPU; the first (page start → layout-ready: the harness's set-up) apart. */
function withCpu(
	figures: LoadFigures,
	cpu: Record<string, RendererCpu> = {},
): { setup: CpuPhase | null; phases: CpuPhase[] } {
	const pid = pageRenderer(cpu);
	let previous = 'page_start';
	const phases = (figures.phases ?? []).map((phase) => {
		const from = pid === null ? undefined : cpu[previous]?.[pid];
		const to = pid === null ? undefined : cpu[phase.name]?.[pid];
		previous = phase.name;
		return {
			...phase,
			main_thread_cpu_ms: grew(from?.main.cpuMs, to?.main.cpuMs),
			process_cpu_ms: grew(from?.all.cpuMs, to?.all.cpuMs),
			main_thread_page_faults: grew(from?.main.faults, to?.main.faults),
			process_page_faults: grew(from?.all.faults, to?.all.faults),
		};
	});
	return { setup: phases[0] ?? null, phases: phases.slice(1) };
}

/** The headline figures and both loads' phases. */
export function summarize(run: {
	vault: string;
	changed: number;
	first: LoadFigures;
	restart: LoadFigures;
	/** The floor's load (reads alone, no plugin), when run. */
	floor?: LoadFigures | null;
	cpu: Record<string, Record<string, RendererCpu>>;
}): Record<string, unknown> {
	const floor = run.floor ? { ...run.floor, ...withCpu(run.floor, run.cpu.floor) } : null;
	const first = withCpu(run.first, run.cpu.first);
	const restart = withCpu(run.restart, run.cpu.restart);
	// The bench's own full collection is no phase of the plugin's.
	const measured = [...first.phases, ...restart.phases].filter((p) => p.name !== 'heap_settled');
	const { phases: _a, ...firstRest } = run.first;
	const { phases: _b, ...restartRest } = run.restart;
	return {
		vault: run.vault,
		notes: run.restart.notes ?? run.first.notes,
		markdown_bytes: run.restart.markdown_bytes ?? run.first.markdown_bytes,
		changed_notes: run.changed,
		first_build_ms: run.first.first_build_ms ?? null,
		save_ms: run.first.save_ms ?? null,
		restart_ready_ms: run.restart.restart_ready_ms ?? null,
		reconcile_done_ms: run.restart.reconcile_done_ms ?? null,
		saved_bytes: run.restart.saved_bytes ?? run.first.saved_bytes ?? null,
		storage_usage_bytes: run.restart.storage_usage_bytes ?? null,
		longest_long_task_ms: Math.max(0, ...measured.map((p) => p.longest_long_task_ms)),
		long_tasks_over_50: measured.reduce((n, p) => n + p.long_tasks_over_50, 0),
		longest_gap_ms: Math.max(0, ...measured.map((p) => p.longest_gap_ms)),
		gaps_over_50: measured.reduce((n, p) => n + p.gaps_over_50, 0),
		first_start: { ...firstRest, setup: first.setup, phases: first.phases },
		restart: { ...restartRest, setup: restart.setup, phases: restart.phases },
		// Not in the headline figures: no plugin ran in it.
		reads_alone: floor,
	};
}

/** Under `--js-flags="--trace-gc"`: how many of a load's long tasks had a collection's pause in them (null without the trace). */
function collectionsLine(figures: { phases: CpuPhase[]; collections?: { pause_ms: number }[] }): string | null {
	if (figures.collections === undefined) return null;
	const tasks = figures.phases
		.filter((p) => p.name !== 'heap_settled')
		.flatMap((p) => p.long_tasks as (Phase['long_tasks'][number] & TaskCollections)[]);
	const paused = tasks.filter((t) => (t.collection_ms ?? 0) > 0).length;
	// Told only where the markings were traced (--trace-incremental-marking): else it would read as none.
	const marking = tasks.some((t) => t.during_marking !== undefined)
		? `, during a marking of the heap: ${tasks.filter((t) => t.during_marking === true).length}`
		: '';
	const longest = Math.max(0, ...figures.collections.map((c) => c.pause_ms));
	return `collections of 20 ms or more: ${figures.collections.length} (longest pause ${Math.round(longest)} ms); long tasks with a pause in them: ${paused}${marking}, of ${tasks.length}`;
}

/** The figures as lines of text: the headline, then one line a phase. */
export function formatFigures(figures: Record<string, unknown>): string {
	const f = figures as Record<string, number | string | null> & {
		first_start: { phases: CpuPhase[]; errors: string[]; collections?: { pause_ms: number }[] };
		restart: {
			phases: CpuPhase[];
			errors: string[];
			resave_forced?: boolean;
			collections?: { pause_ms: number }[];
		};
		reads_alone: { phases: CpuPhase[]; errors: string[]; collections?: { pause_ms: number }[] } | null;
	};
	const floor = f.reads_alone;
	const mb = (b: unknown): string => (typeof b === 'number' ? `${(b / 1e6).toFixed(1)} MB` : '-');
	const lines = [
		`vault             ${f.vault} (${f.notes} notes, ${mb(f.markdown_bytes)} of Markdown, ${f.changed_notes} changed)`,
		`first_build_ms    ${f.first_build_ms} (then saved in ${f.save_ms} ms; saved ${mb(f.saved_bytes)}, storage ${mb(f.storage_usage_bytes)})`,
		`restart_ready_ms  ${f.restart_ready_ms} (reconciled at ${f.reconcile_done_ms} ms${f.restart.resave_forced ? '; re-save forced' : ''})`,
		`memory            a fresh 4 KB page costs ${f.fresh_page_us ?? '-'} µs to touch first (page faults below: the main thread's / the whole renderer's)`,
		`long tasks        longest ${f.longest_long_task_ms} ms, ${f.long_tasks_over_50} over 50 ms (beat gaps: longest ${f.longest_gap_ms} ms, ${f.gaps_over_50} over 50 ms)`,
		'phase                        wall ms  longest task  tasks>50  longest gap  gaps>50  main cpu  renderer cpu        page faults  heap MB',
	];
	if (floor !== null) {
		const tasks = floor.phases.flatMap((p) => p.long_tasks);
		lines.splice(
			-1,
			0,
			`reads alone       no plugin, every note read as the first start reads them: longest task ${Math.max(0, ...tasks.map((t) => t.ms))} ms, ${tasks.filter((t) => t.ms > 50).length} over 50 ms (floor.read below)`,
		);
	}
	for (const [load, phases] of [
		['floor', floor?.phases ?? []],
		['first', f.first_start.phases],
		['restart', f.restart.phases],
	] as const) {
		for (const p of phases) {
			const cells = [
				`${load}.${p.name}`.padEnd(28),
				String(p.wall_ms).padStart(8),
				String(p.longest_long_task_ms).padStart(13),
				String(p.long_tasks_over_50).padStart(9),
				String(p.longest_gap_ms).padStart(12),
				String(p.gaps_over_50).padStart(8),
				String(p.main_thread_cpu_ms ?? '-').padStart(9),
				String(p.process_cpu_ms ?? '-').padStart(13),
				`${p.main_thread_page_faults ?? '-'} / ${p.process_page_faults ?? '-'}`.padStart(18),
				String(p.heap_mb ?? '-').padStart(8),
			];
			lines.push(cells.join(' '));
		}
	}
	for (const [load, figures] of [
		['floor', floor],
		['first', f.first_start],
		['restart', f.restart],
	] as const) {
		const line = figures === null ? null : collectionsLine(figures);
		if (line !== null) lines.push(`${load.padEnd(8)}          ${line}`);
	}
	const errors = [...(floor?.errors ?? []), ...f.first_start.errors, ...f.restart.errors];
	if (errors.length > 0) lines.push(`errors            ${errors.join(' | ')}`);
	return `${lines.join('\n')}\n`;
}
