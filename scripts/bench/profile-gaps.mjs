/**
 * What held the main thread in each long gap of the plugin harness (test/plugin/ready-large.test.ts):
 * the samples of a `--cpu-prof` profile that fall inside each gap the harness's heartbeat saw,
 * charged three ways — garbage collection, the innermost frame of our own code (`src/…`) on the
 * stack, and the innermost frame of any code. Profile and gaps share the monotonic clock.
 *
 *   VAULT_QUERY_PLUGIN_BENCH=/tmp/vault-query-gen-50000-42 VAULT_QUERY_PLUGIN_BENCH_GAPS=/tmp/gaps.json \
 *     NODE_OPTIONS=--expose-gc npx vitest run test/plugin/ready-large.test.ts \
 *     --execArgv=--cpu-prof --execArgv=--cpu-prof-interval=1000 --execArgv=--cpu-prof-dir=/tmp/prof
 *   node scripts/bench/profile-gaps.mjs /tmp/prof/CPU.….cpuprofile /tmp/gaps.json [top = 10]
 */
import { readFileSync } from 'node:fs';

const [profileFile, gapsFile, top = '10'] = process.argv.slice(2);
if (gapsFile === undefined) {
	process.stderr.write('usage: node scripts/bench/profile-gaps.mjs PROFILE.cpuprofile GAPS.json [top]\n');
	process.exit(2);
}
const profile = JSON.parse(readFileSync(profileFile, 'utf8'));
const gaps = JSON.parse(readFileSync(gapsFile, 'utf8'));

const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

/** `function file:line` of a profile node, the file shortened to its last two parts. */
function label(node) {
	const { functionName, url, lineNumber } = node.callFrame;
	return url === ''
		? functionName || '(anonymous)'
		: `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
}

/** The innermost frame of our own code on a sample's stack, or null. */
function ownFrame(id) {
	for (let x = id; x !== undefined; x = parent.get(x))
		if (nodes.get(x).callFrame.url.includes('/src/')) return label(nodes.get(x));
	return null;
}

let t = profile.startTime;
const times = profile.timeDeltas.map((d) => (t += d));

/** The `n` largest entries of a tally, as "ms label" lines. */
function largest(tally, n) {
	return [...tally]
		.sort((a, b) => b[1] - a[1])
		.slice(0, n)
		.map(([k, ms]) => `${ms.toFixed(0).padStart(5)} ms  ${k}`);
}

const inProfile = gaps.filter((g) => g.endUs >= profile.startTime && g.endUs - g.ms * 1000 <= profile.endTime);
process.stdout.write(`${gaps.length} gaps over 50 ms, ${inProfile.length} inside the profile\n`);
for (const gap of [...inProfile].sort((a, b) => b.ms - a.ms).slice(0, Number(top))) {
	const from = gap.endUs - gap.ms * 1000;
	const own = new Map();
	const self = new Map();
	let gc = 0;
	let idle = 0;
	for (let i = 1; i < times.length; i++) {
		if (times[i] < from || times[i] > gap.endUs) continue;
		const ms = (times[i] - times[i - 1]) / 1000;
		const node = nodes.get(profile.samples[i]);
		const name = node.callFrame.functionName;
		if (name === '(garbage collector)') gc += ms;
		else if (name === '(idle)') idle += ms;
		const mine = ownFrame(profile.samples[i]) ?? '(no frame of src/)';
		own.set(mine, (own.get(mine) ?? 0) + ms);
		self.set(label(node), (self.get(label(node)) ?? 0) + ms);
	}
	process.stdout.write(
		`\ngap ${gap.ms.toFixed(0)} ms at +${((from - profile.startTime) / 1e6).toFixed(2)} s: GC ${gc.toFixed(0)} ms, idle ${idle.toFixed(0)} ms\n`,
	);
	process.stdout.write(`  innermost own frame:\n    ${largest(own, 5).join('\n    ')}\n`);
	process.stdout.write(`  innermost frame:\n    ${largest(self, 5).join('\n    ')}\n`);
}
