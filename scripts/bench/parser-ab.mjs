/**
 * A/B of two builds of our parser (for a refactor: "no slower"), after checking both give
 * identical metadata for every note.
 *
 * Each build runs in its own worker thread (its own heap and JIT, so one build's garbage is never
 * collected on the other's time — in one shared heap, two copies of the *same* bundle differed by
 * up to 6 %), and the main thread alternates single passes between them, swapping which goes first
 * every round, so a change of load on the shared machine hits both alike. The figure to read is
 * the median of the per-round ratios (after ÷ before, MB per CPU-second; > 1 is faster) with its
 * spread; wall-clock figures follow for reference.
 *
 * Usage: node scripts/bench/parser-ab.mjs OLD.mjs NEW.mjs [VAULT] [--rounds N]
 * where each .mjs is `esbuild src/node/parser/index.ts --bundle --platform=node --format=esm`
 * of one commit (e.g. from `git archive <commit> src` unpacked inside the repo, for node_modules).
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { loadTexts, median, say } from './lib.mjs';

if (!isMainThread) {
	// A worker: load one build and the texts, then time one pass per message.
	const build = await import(workerData.file);
	const { texts } = loadTexts(workerData.vault);
	parentPort.on('message', () => {
		const cpu = process.cpuUsage();
		const start = performance.now();
		for (const text of texts) if (build.parseNote(text) === undefined) throw new Error('a parser returned nothing');
		const ms = performance.now() - start;
		// The main thread only waits meanwhile, so the process's CPU time is this pass's.
		const used = process.cpuUsage(cpu);
		parentPort.postMessage({ ms, cpu: (used.user + used.system) / 1000 });
	});
	parentPort.postMessage('ready');
} else {
	const args = process.argv.slice(2);
	const at = args.indexOf('--rounds');
	const rounds = at >= 0 ? Number(args.splice(at, 2)[1]) : 16;
	const [oldFile, newFile, vault = '../shared/vaults/obsidian-help-i18n'] = args;
	if (!oldFile || !newFile || !(rounds >= 2))
		throw new Error('usage: node scripts/bench/parser-ab.mjs OLD.mjs NEW.mjs [VAULT] [--rounds N]');
	const files = { before: pathToFileURL(resolve(oldFile)).href, after: pathToFileURL(resolve(newFile)).href };
	const { texts, bytes } = loadTexts(resolve(vault));
	const [a, b] = await Promise.all([import(files.before), import(files.after)]);
	for (const text of texts)
		if (JSON.stringify(a.parseNote(text)) !== JSON.stringify(b.parseNote(text)))
			throw new Error('the two builds disagree on a note');

	/** A worker holding one build; `pass()` times one pass over every text. */
	const start = async (file) => {
		const worker = new Worker(new URL(import.meta.url), { workerData: { file, vault: resolve(vault) } });
		let waiting = null;
		worker.on('message', (m) => waiting?.(m));
		worker.on('error', (e) => {
			throw e;
		});
		const next = () => new Promise((done) => (waiting = done));
		await next();
		return { pass: () => (worker.postMessage('go'), next()), stop: () => worker.terminate() };
	};
	const workers = { before: await start(files.before), after: await start(files.after) };
	for (let i = 0; i < 3; i++) for (const w of Object.values(workers)) await w.pass();
	const runs = { before: [], after: [] };
	const loads = [];
	for (let i = 0; i < rounds; i++) {
		loads.push(loadavg()[0]);
		for (const name of i % 2 ? ['after', 'before'] : ['before', 'after'])
			runs[name].push(await workers[name].pass());
	}
	for (const w of Object.values(workers)) await w.stop();

	const mb = bytes / 1e6;
	const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
	for (const [name, r] of Object.entries(runs)) {
		say(
			`${name}: median ${((mb / median(r.map((x) => x.ms))) * 1000).toFixed(1)} MB/s wall, ${((mb / median(r.map((x) => x.cpu))) * 1000).toFixed(1)} MB per CPU-s, best ${((mb / Math.min(...r.map((x) => x.ms))) * 1000).toFixed(1)} MB/s`,
		);
	}
	// Per round: how much faster "after" was (its CPU time per pass against before's, same round).
	const ratios = runs.before.map((x, i) => x.cpu / runs.after[i].cpu).sort((x, y) => x - y);
	const wall = runs.before.map((x, i) => x.ms / runs.after[i].ms).sort((x, y) => x - y);
	say(
		`after ÷ before speed, CPU: median ${median(ratios).toFixed(3)}× (middle half ${pct(ratios, 0.25).toFixed(3)}–${pct(ratios, 0.75).toFixed(3)}, range ${ratios[0].toFixed(3)}–${ratios.at(-1).toFixed(3)}); wall: median ${median(wall).toFixed(3)}×`,
	);
	say(
		`${rounds} rounds, load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}; ${texts.length} notes, ${mb.toFixed(1)} MB; identical metadata on every note`,
	);
}
