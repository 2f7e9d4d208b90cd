/**
 * Same-process A/B of two builds of our parser (for a refactor: "no slower"), alternating passes
 * so the load of other processes hits both alike, after checking both give identical metadata.
 *
 * Usage: node scripts/bench/parser-ab.mjs OLD.mjs NEW.mjs [VAULT]
 * where each .mjs is `esbuild src/node/parser/index.ts --bundle --platform=node --format=esm`
 * of one commit (e.g. from `git archive <commit> src` unpacked inside the repo, for node_modules).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadTexts, say } from './lib.mjs';

const [oldFile, newFile, vault = '../shared/vaults/obsidian-help-i18n'] = process.argv.slice(2);
if (!oldFile || !newFile) throw new Error('usage: node scripts/bench/parser-ab.mjs OLD.mjs NEW.mjs [VAULT]');
const builds = { before: await import(pathToFileURL(resolve(oldFile)).href), after: await import(pathToFileURL(resolve(newFile)).href) };
const { texts, bytes } = loadTexts(resolve(vault));

/** One pass over every text: wall ms and this process's CPU ms. */
function pass(parse) {
	const cpu = process.cpuUsage();
	const start = performance.now();
	for (const text of texts) if (parse(text) === undefined) throw new Error('a parser returned nothing');
	const ms = performance.now() - start;
	const used = process.cpuUsage(cpu);
	return { ms, cpu: (used.user + used.system) / 1000 };
}

for (const text of texts) if (JSON.stringify(builds.before.parseNote(text)) !== JSON.stringify(builds.after.parseNote(text))) throw new Error('the two builds disagree on a note');
for (let i = 0; i < 3; i++) for (const b of Object.values(builds)) pass(b.parseNote);
const runs = { before: [], after: [] };
for (let i = 0; i < 8; i++) for (const name of i % 2 ? ['after', 'before'] : ['before', 'after']) runs[name].push(pass(builds[name].parseNote));
const median = (values) => {
	const s = [...values].sort((x, y) => x - y);
	return (s[3] + s[4]) / 2;
};
const mb = bytes / 1e6;
for (const [name, r] of Object.entries(runs)) {
	say(`${name}: median ${((mb / median(r.map((x) => x.ms))) * 1000).toFixed(1)} MB/s wall, ${((mb / median(r.map((x) => x.cpu))) * 1000).toFixed(1)} MB per CPU-s, best ${((mb / Math.min(...r.map((x) => x.ms))) * 1000).toFixed(1)} MB/s`);
}
say(`${texts.length} notes, ${mb.toFixed(1)} MB; identical metadata on every note`);
