/**
 * Cold CLI wall time: each run spawns a fresh `node dist/cli.mjs <command> … --vault <vault> --no-cache`,
 * so every run walks, reads and parses the whole vault and builds its link maps before answering —
 * no index snapshot is read or saved and no background server answers (`--no-cache` implies
 * `--no-server`). The OS page cache is warm after the first run: "cold" means a cold process and
 * no saved index, not a cold disk.
 * Commands alternate round-robin so load from other processes hits them alike. Two baselines
 * show the fixed cost: `node -e 0` (Node's own start) and `--help` (Node + loading the bundle).
 * Each run also reports the child's user+system CPU time (see timeSpawn), steadier than wall time
 * on a shared machine, though it counts V8's background GC and compiler threads too.
 */
import { CLI, median, summarize, timeSpawn, verdict } from './lib.mjs';

/** A cold backlinks query (no snapshot, no server) within 1 s. */
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

/**
 * How many notes (or links) the text answer's first line counts: `2 notes match (searched …)`,
 * `1 note matches`, `20+ notes match`, `10 notes link to X`, `Links from X: 6 links`. Throws when
 * the line has none of these shapes: a bench that cannot read its result must not print a guess.
 */
export function matchedCount(stdout) {
	const first = stdout.split('\n', 1)[0];
	const found =
		/^(\d+)\+? notes? (?:match|matches|links? to)\b/.exec(first) ?? /^Links from .*: (\d+) links?$/.exec(first);
	if (!found)
		throw new Error(`cannot read the number of results from the CLI's first line: ${JSON.stringify(first)}`);
	return Number(found[1]);
}

/** Spawn one cold CLI run (`--no-cache`); fail loudly when the command did not answer with results (exit 0). */
export function runCliOnce(args, vault) {
	const run = timeSpawn(process.execPath, [CLI, ...args, '--vault', vault, '--no-cache'], { cpu: true });
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
				argv: ['vault-query', ...queries[name], '--vault', vault, '--no-cache'],
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
