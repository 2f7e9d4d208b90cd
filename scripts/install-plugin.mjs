// Copies the built plugin (main.js, manifest.json, styles.css) into a vault:
//   npm run install-plugin -- <vault> [--config-dir <name>]
// The files land in <vault>/<configDir>/plugins/<manifest id>/. configDir is Obsidian's config
// folder, `.obsidian` unless the user changed it (Vault#configDir); pass --config-dir for another.
// Refuses, with exit code 2 and a reason, when <vault> is not a directory or has no config folder
// (which usually means it is not a vault Obsidian has opened).
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FILES = ['main.js', 'manifest.json', 'styles.css'];
const USAGE = 'usage: npm run install-plugin -- <vault> [--config-dir <name>]';

function fail(message) {
	console.error(`install-plugin: ${message}`);
	process.exit(2);
}

function parseArgs(argv) {
	let vault = null;
	// A script has no Vault#configDir to ask (the lint rule's advice is for plugin code): Obsidian's
	// default, overridable with --config-dir.
	let configDir = '.obsidian';
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--help' || arg === '-h') {
			process.stdout.write(`${USAGE}\n`);
			process.exit(0);
		} else if (arg === '--config-dir') {
			const value = argv[++i];
			if (!value || value.startsWith('-')) fail('--config-dir needs a folder name');
			configDir = value;
		} else if (arg.startsWith('-')) {
			fail(`unknown option ${arg}\n${USAGE}`);
		} else if (vault === null) {
			vault = arg;
		} else {
			fail(`unexpected argument ${arg}\n${USAGE}`);
		}
	}
	if (vault === null) fail(`no vault given\n${USAGE}`);
	return { vault: resolve(vault), configDir };
}

function isDirectory(path) {
	try {
		return statSync(path).isDirectory();
	} catch {
		return false;
	}
}

const { vault, configDir } = parseArgs(process.argv.slice(2));
if (!isDirectory(vault)) fail(`${vault} is not a directory`);
const config = join(vault, configDir);
if (!isDirectory(config)) {
	fail(
		`${vault} has no ${configDir} folder, so it does not look like an Obsidian vault (open it in Obsidian once, or pass --config-dir if the vault uses another config folder)`,
	);
}
for (const file of FILES) {
	if (!existsSync(join(root, file))) fail(`${file} is missing in ${root}: run "npm run build" first`);
}
const manifest = JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8'));
const target = join(config, 'plugins', manifest.id);
mkdirSync(target, { recursive: true });
for (const file of FILES) copyFileSync(join(root, file), join(target, file));
process.stdout.write(`Installed ${manifest.name} ${manifest.version} into ${target}\n`);
process.stdout.write('Enable it in Obsidian: Settings → Community plugins (reload the app if it was already open).\n');
