/**
 * The e2e tests' page: the harness (harness-server.ts) built into a folder, served from 127.0.0.1
 * and opened in Chromium, with every error the page throws or logs collected.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_VAULT } from '../helpers/paths';
import { hashTree } from '../helpers/hash';
import { CHROMIUM, hasChromium, launch } from './browser';
import { buildHarness, serve } from './harness-server';

/** The opened page of one test file. */
export interface HarnessPage {
	/** The page (set before the first test). */
	page: Page;
	/** What the page threw or logged as an error (never cleared by `load`). */
	errors: string[];
	/** Loads the page (or reloads it) and waits until the plugin is ready. */
	load(reload?: boolean): Promise<void>;
}

/**
 * `describe` for tests in Chromium: before them the harness is built into `out`, served and opened
 * in a page; after them the browser and server close and the example vault must be byte-identical.
 * Without Chromium, one skipped test says why.
 */
export function describeInChromium(name: string, out: string, tests: (harness: HarnessPage) => void): void {
	if (!hasChromium()) {
		describe(name, () => {
			it.skip(`skipped: Chromium is not installed at ${CHROMIUM} (apt-get install chromium; .ci/run does)`, () =>
				undefined);
		});
		return;
	}
	describe(name, () => {
		let server: Awaited<ReturnType<typeof serve>> | undefined;
		let browser: Awaited<ReturnType<typeof launch>> | undefined;
		let vaultHash = '';
		const harness: HarnessPage = {
			page: undefined as unknown as Page,
			errors: [],
			load: async (reload = false) => {
				if (reload) await harness.page.reload();
				else await harness.page.goto(server?.url ?? '');
				await harness.page.waitForSelector('body[data-ready="true"]');
			},
		};
		beforeAll(async () => {
			vaultHash = hashTree(EXAMPLE_VAULT);
			await buildHarness(out);
			server = await serve(out);
			browser = await launch(server.url.replace(/\/$/, ''));
			harness.page = await browser.context.newPage();
			harness.page.on('pageerror', (error) => harness.errors.push(error.message));
			harness.page.on('console', (message) => {
				if (message.type() === 'error') harness.errors.push(message.text());
			});
		});
		afterAll(async () => {
			await browser?.close();
			await server?.close();
			expect(hashTree(EXAMPLE_VAULT)).toBe(vaultHash);
		});
		tests(harness);
	});
}
