/**
 * The Chromium bench (scripts/bench/plugin-chromium.mjs) on the example vault, 2 notes changed
 * while Chromium was closed: the floor's load reads every note with no plugin, its two page loads run, the first builds in the Web Worker and saves,
 * the second restores (no build), reconciles the 2 notes and answers from the restored index, and
 * every figure the bench reports is there — so the bench keeps working between its runs at 50k.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashTree } from '../helpers/hash';
import { EXAMPLE_VAULT, REPO } from '../helpers/paths';
import { hasChromium, CHROMIUM } from './browser';
import { runChromiumBench } from './bench/run';

const OUT = join(REPO, 'test-output', 'e2e-chromium-bench');

/** A phase of the figures as the bench reports it. */
interface ReportedPhase {
	name: string;
	wall_ms: number;
	long_tasks_over_50: number;
	long_tasks: unknown[];
	gaps: unknown[];
	main_thread_page_faults: number | null;
	process_page_faults: number | null;
}

describe('the Chromium bench', () => {
	it.skipIf(!hasChromium())(
		`runs the first start and the restart on the example vault and reports every figure (needs ${CHROMIUM})`,
		async () => {
			const before = hashTree(EXAMPLE_VAULT);
			const figures = (await runChromiumBench({
				vault: EXAMPLE_VAULT,
				changed: 2,
				outDir: OUT,
				loadTimeoutMs: 120_000,
				floor: true,
			})) as Record<string, unknown> & {
				reads_alone: { errors: string[]; bytes_read: number; markdown_bytes: number; phases: ReportedPhase[] };
				first_start: { log: string[]; errors: string[]; main_thread_builds: number; phases: ReportedPhase[] };
				restart: {
					log: string[];
					errors: string[];
					main_thread_builds: number;
					answer: string[];
					phases: ReportedPhase[];
				};
			};
			// The floor's load read every note, and nothing else ran in it.
			expect(figures.reads_alone.errors).toEqual([]);
			expect(figures.reads_alone.bytes_read).toBe(figures.reads_alone.markdown_bytes); // the vault before its 2 changes
			expect(figures.reads_alone.bytes_read).toBeGreaterThan(0);
			expect(figures.reads_alone.phases.map((p) => p.name)).toEqual(['read']);
			expect(figures.first_start.errors).toEqual([]);
			expect(figures.restart.errors).toEqual([]);
			// Built in the worker and saved, then restored (not rebuilt) with the 2 changed notes reconciled.
			expect(figures.first_start.log).toEqual([
				'built in a worker (0 notes to reconcile)',
				'saved (32 notes) by the worker',
			]);
			expect(figures.restart.log.slice(0, 2)).toEqual([
				'search index loaded (2 notes re-indexed)',
				'restored (2 notes to reconcile)',
			]);
			expect(figures.first_start.main_thread_builds + figures.restart.main_thread_builds).toBe(0);
			expect(figures.restart.answer.length).toBeGreaterThan(0);
			expect(figures.restart.answer).toContain('projects/alpha.md');
			for (const key of ['first_build_ms', 'save_ms', 'restart_ready_ms', 'reconcile_done_ms', 'saved_bytes'])
				expect(figures[key], key).toEqual(expect.any(Number));
			expect(figures.saved_bytes).toBeGreaterThan(0);
			expect(figures.first_start.phases.map((p) => p.name)).toEqual(['built', 'saved', 'records_loaded']);
			expect(figures.restart.phases.map((p) => p.name)).toEqual([
				'restored',
				'first_search',
				'reconciled',
				'resaved',
				'heap_settled',
				'settled',
				'settled_searches',
			]);
			for (const phase of [...figures.first_start.phases, ...figures.restart.phases]) {
				expect(phase.long_tasks_over_50).toBe(phase.long_tasks.length);
				expect(Array.isArray(phase.gaps)).toBe(true);
			}
			// What the machine charges for fresh memory, and the build's page faults (/proc: Linux).
			expect(figures.fresh_page_us).toBeGreaterThan(0);
			if (existsSync('/proc/self/task')) {
				const built = figures.first_start.phases[0]!;
				expect(built.main_thread_page_faults).toEqual(expect.any(Number));
				// The renderer's whole count holds the main thread's, and the worker's heap grew as it built.
				expect(built.process_page_faults).toBeGreaterThan(built.main_thread_page_faults!);
			}
			expect(hashTree(EXAMPLE_VAULT)).toBe(before);
		},
		300_000,
	);
});
