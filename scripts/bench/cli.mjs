/**
 * Cold CLI wall time: each run spawns a fresh `node dist/cli.mjs <command> … --vault <vault>`, so
 * every run walks, reads and parses the whole vault and builds its link maps before answering (the
 * OS page cache is warm after the first run: "cold" means a cold process, not a cold disk).
 * Commands alternate round-robin so load from other processes hits them alike. Two baselines
 * show the fixed cost: `node -e 0` (Node's own start) and `--help` (Node + loading the bundle).
 * Each run also reports the child's user+system CPU time (see timeSpawn), steadier than wall time
 * on a shared machine, though it counts V8's background GC and compiler threads too.
 */
import { CLI, median, summarize, timeSpawn, verdict } from './lib.mjs';

/** Issue 2, section 7: a cold backlinks query within 1 s. */
export const CLI_TARGETS = { backlinksMaxMs: 1000 };

/**
 * The commands timed, with arguments that have results on obsidian-help-i18n: `desktop` is a
 * frontmatter tag of 116 release notes; `Einstellungen` (de/Benutzeroberfläche/Einstellungen.md)
 * is a note name that exists exactly once and has 64 backlinks; `canvas` matches in 376 notes.
 */
export const CLI_QUERIES = {
	tag: ['tag', 'desktop'],
	backlinks: ['backlinks', 'Einstellungen'],
	grep: ['grep', 'canvas'],
};

/** `N notes matched` from the text listing's first line, or null. */
function matchedCount(stdout) {
	const found = /^(\d+) (?:notes?|links?) matched/m.exec(stdout);
	return found ? Number(found[1]) : null;
}

/** Spawn one CLI run; fail loudly when the command did not answer with results (exit 0). */
export function runCliOnce(args, vault) {
	const run = timeSpawn(process.execPath, [CLI, ...args, '--vault', vault], { cpu: true });
	if (run.status !== 0) {
		const why = run.status === 1 ? 'nothing matched: pick arguments with results' : run.stderr.trim();
		throw new Error(`vault-query ${args.join(' ')} exited ${String(run.status)}: ${why}`);
	}
	return run;
}

/** Run the CLI job: baselines plus each query, one warm-up then `runs` timed runs each. */
export function benchCli({ vault, runs, queries = CLI_QUERIES }) {
	const jobs = {
		'node -e 0': () => timeSpawn(process.execPath, ['-e', '0'], { cpu: true }),
		'cli --help': () => timeSpawn(process.execPath, [CLI, '--help'], { cpu: true }),
	};
	for (const [name, args] of Object.entries(queries)) jobs[name] = () => runCliOnce(args, vault);

	const matched = {};
	for (const [name, job] of Object.entries(jobs)) {
		const warm = job();
		if (name in queries) matched[name] = matchedCount(warm.stdout);
	}
	const times = Object.fromEntries(Object.keys(jobs).map((name) => [name, []]));
	const cpu = Object.fromEntries(Object.keys(jobs).map((name) => [name, []]));
	for (let i = 0; i < runs; i++) {
		for (const [name, job] of Object.entries(jobs)) {
			const run = job();
			times[name].push(run.ms);
			cpu[name].push(run.cpuMs);
		}
	}

	const commands = {};
	for (const [name, list] of Object.entries(times)) {
		commands[name] = { ...summarize(list), cpuMedianMs: Math.round(median(cpu[name])) };
		if (name in queries)
			Object.assign(commands[name], {
				argv: ['vault-query', ...queries[name], '--vault', vault],
				matched: matched[name],
			});
	}
	const backlinks = commands.backlinks.medianMs;
	return {
		runs,
		commands,
		targets: {
			coldBacklinks: {
				target: `<= ${CLI_TARGETS.backlinksMaxMs} ms`,
				value: backlinks,
				verdict: verdict(backlinks <= CLI_TARGETS.backlinksMaxMs),
			},
		},
	};
}
