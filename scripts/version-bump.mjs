/**
 * `npm version` hook (package.json `version` script): package.json is the one version source; this
 * writes its new version into manifest.json and adds it to versions.json with the manifest's
 * minAppVersion, as the Obsidian sample plugin's version-bump.mjs does. The CLI takes the version
 * from package.json when it is built (esbuild.config.mjs).
 */
import { readFileSync, writeFileSync } from 'node:fs';

const target = process.env.npm_package_version;
if (target === undefined || target === '') {
	console.error('version-bump: npm_package_version is not set (run it through `npm version <new version>`)');
	process.exit(1);
}
const manifest = JSON.parse(readFileSync('manifest.json', 'utf8'));
manifest.version = target;
writeFileSync('manifest.json', `${JSON.stringify(manifest, null, '\t')}\n`);
const versions = JSON.parse(readFileSync('versions.json', 'utf8'));
versions[target] = manifest.minAppVersion;
writeFileSync('versions.json', `${JSON.stringify(versions, null, '\t')}\n`);
