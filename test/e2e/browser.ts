/** Launching Debian's Chromium with playwright-core, the way CI runs it. */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Where Debian's `chromium` package puts the browser (`.ci/run` installs it). */
export const CHROMIUM = '/usr/bin/chromium';

/** Whether the browser is installed. */
export function hasChromium(): boolean {
	return existsSync(CHROMIUM);
}

/** The flags every launch passes (no sandbox in containers, no GPU, no background traffic). */
export const ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-quic',
	'--no-first-run',
	'--disable-component-update',
	'--disable-sync',
];

/** A headless Chromium with a fresh profile; `close` also deletes the profile. */
export async function launch(origin: string): Promise<{ context: BrowserContext; close(): Promise<void> }> {
	const profile = mkdtempSync(join(tmpdir(), 'vault-query-chromium-'));
	const context = await chromium.launchPersistentContext(profile, {
		executablePath: CHROMIUM,
		headless: true,
		args: ARGS,
		viewport: { width: 1180, height: 760 },
		deviceScaleFactor: 1,
	});
	await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
	return {
		context,
		close: async () => {
			await context.close();
			rmSync(profile, { recursive: true, force: true });
		},
	};
}
