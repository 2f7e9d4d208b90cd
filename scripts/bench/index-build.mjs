/**
 * CPU of the ranked-search index build, A/B: each source tree (`--roots A,B`, default this
 * checkout) is bundled (core search + the Node vault source + the part codec) and built in fresh
 * child processes, interleaved A, B, A, B… so both see the same load. A child reads the whole vault
 * into memory first (files, frontmatter and link parsing are not timed), then times
 * `SearchIndex.build` over the texts in memory: process CPU (user+sys, V8's helper threads
 * included), the main thread's CPU (/proc/thread-self/stat), wall time and minor page faults (the
 * process's and the thread's: first touches of fresh memory, costly on some machines). It also prints a
 * SHA-256 of the encoded search part, so two trees that must build the same index can be compared.
 *   node scripts/bench/index-build.mjs --vault DIR [--roots A,B] [--rounds 3] [--json]
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleAndImport, root as benchRoot } from '../../eval/bundle.mjs';

const arg = (name, def) => {
	const i = process.argv.indexOf(`--${name}`);
	return i > 0 ? process.argv[i + 1] : def;
};
const here = fileURLToPath(import.meta.url);

/** The fields of a /proc stat file after the command's name (index 0 is the state), or null off Linux. */
function statFields(file) {
	try {
		const stat = readFileSync(file, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	} catch {
		return null;
	}
}

/** CPU seconds of the calling thread so far (utime + stime, Linux clock ticks of 10 ms). */
function threadCpu() {
	const f = statFields('/proc/thread-self/stat');
	return f === null ? NaN : (Number(f[11]) + Number(f[12])) / 100;
}

/** Minor page faults so far (first touches of fresh memory): the process's (V8's helper threads included) and the calling thread's. */
function minorFaults() {
	const process = statFields('/proc/self/stat');
	const thread = statFields('/proc/thread-self/stat');
	return { process: process === null ? NaN : Number(process[7]), thread: thread === null ? NaN : Number(thread[7]) };
}

/** The child: build once over texts in memory, print one JSON line. */
async function child(bundle, vault) {
	const E = await import(pathToFileURL(bundle).href);
	const source = await E.openVault(vault);
	const texts = new Map();
	for (const p of source.listNotes()) texts.set(p, await source.read(p).catch(() => null));
	const inMemory = Object.create(source);
	inMemory.read = async (p) => {
		const t = texts.get(p);
		if (typeof t !== 'string') throw new Error('unreadable');
		return t;
	};
	const c0 = process.cpuUsage();
	const th0 = threadCpu();
	const f0 = minorFaults();
	const t0 = performance.now();
	const si = await E.SearchIndex.build(inMemory, {}, { yieldFn: () => Promise.resolve() });
	const wall = performance.now() - t0;
	const th = threadCpu() - th0;
	const c = process.cpuUsage(c0);
	const f1 = minorFaults();
	const faults = { process: f1.process - f0.process, thread: f1.thread - f0.thread };
	const bytes = E.encodePart(
		{
			kind: 'search',
			tool: 't',
			settings: 's',
			stamps: new Map(),
			sections: E.searchSections(si, E.nodeCodecHost),
		},
		E.nodeCodecHost,
	);
	const sha = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
	process.stdout.write(
		`${JSON.stringify({ notes: si.size, cpu: (c.user + c.system) / 1e6, system: c.system / 1e6, thread: th, wall: wall / 1000, faults, bytes: bytes.length, sha })}\n`,
	);
}

/** Bundle the engine of the tree at `root` into bench-output/ (eval/bundle.mjs); the bundle's path. */
async function bundleRoot(root, i) {
	const src = resolve(root, 'src');
	await bundleAndImport(`index-build-${i}`, [
		`export * from '${src}/core/search/search';`,
		`export { openVault } from '${src}/node/vault-source';`,
		`export { encodePart } from '${src}/core/snapshot/part-codec';`,
		`export { searchSections } from '${src}/core/snapshot/search-part';`,
		`export { nodeCodecHost } from '${src}/node/snapshot/codec-host';`,
	]);
	return join(benchRoot, 'bench-output', `index-build-${i}.mjs`);
}

if (process.argv[2] === '--child') await child(process.argv[3], process.argv[4]);
else {
	const vault = resolve(arg('vault', ''));
	const roots = arg('roots', join(here, '..', '..', '..')).split(',');
	const rounds = Number(arg('rounds', 3));
	const bundles = await Promise.all(roots.map((r, i) => bundleRoot(r, i)));
	const results = roots.map(() => []);
	for (let r = 0; r < rounds; r++) {
		for (let i = 0; i < roots.length; i++) {
			const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
			const p = spawnSync(process.execPath, ['--max-old-space-size=12000', here, '--child', bundles[i], vault], {
				encoding: 'utf8',
				maxBuffer: 1 << 24,
			});
			if (p.status !== 0) throw new Error(p.stderr);
			const res = { ...JSON.parse(p.stdout.trim().split('\n').pop()), load: Number(load) };
			results[i].push(res);
			if (!process.argv.includes('--json'))
				process.stdout.write(
					`round ${r + 1} ${roots[i]}: cpu ${res.cpu.toFixed(2)} s (system ${res.system.toFixed(2)} s), thread ${res.thread.toFixed(2)} s, wall ${res.wall.toFixed(2)} s, page faults ${res.faults.process} (thread ${res.faults.thread}), load ${load}, part ${res.bytes} B ${res.sha}\n`,
				);
		}
	}
	const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
	const summary = roots.map((root, i) => ({
		root,
		cpu: median(results[i].map((x) => x.cpu)),
		thread: median(results[i].map((x) => x.thread)),
		sha: [...new Set(results[i].map((x) => x.sha))],
		runs: results[i],
	}));
	if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(summary)}\n`);
	else
		for (const s of summary)
			process.stdout.write(
				`${s.root}: median cpu ${s.cpu.toFixed(2)} s, thread ${s.thread.toFixed(2)} s, part ${s.sha.join(' ')}\n`,
			);
}
