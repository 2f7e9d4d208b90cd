// `npm start`: after the build, run one example of each kind of question on examples/vault with the built CLI.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const vault = 'examples/vault';
const demos = [
	['tag', 'copilot'],
	['prop', 'status', 'open'],
	['backlinks', 'conventions'],
	['links', '2026-06-20-adopt-obsidian-and-ob1-patterns'],
	['grep', 'OB1'],
	['filter', '--where', 'type=claim', '--where', 'domain=investing'],
	['search', 'copilot retention', '--limit', '3'],
	['pack', 'What do we know about Copilot data handling?', '--budget', '400'],
];
for (const args of demos) {
	process.stdout.write(
		`\n$ vault-query ${args.map((a) => (a.includes(' ') ? `"${a}"` : a)).join(' ')} --vault ${vault}\n`,
	);
	const run = spawnSync(process.execPath, ['dist/cli.mjs', ...args, '--vault', vault], {
		cwd: root,
		encoding: 'utf8',
	});
	process.stdout.write(run.stdout);
	if (run.stderr) process.stderr.write(run.stderr);
}
process.stdout.write(
	'\nThe plugin bundle is main.js (with manifest.json and styles.css); install it with: npm run install-plugin -- <vault>\n',
);
