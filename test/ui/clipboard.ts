import { afterEach, beforeEach, vi } from 'vitest';

/**
 * For a DOM test file: every `navigator.clipboard.writeText` is captured into the returned list
 * (emptied before each test), and mocks and the document are reset after each test.
 */
export function captureClipboard(): string[] {
	const written: string[] = [];
	beforeEach(() => {
		written.length = 0;
		vi.spyOn(navigator.clipboard, 'writeText').mockImplementation(async (text: string) => {
			written.push(text);
		});
	});
	afterEach(() => {
		vi.restoreAllMocks();
		document.body.empty();
	});
	return written;
}
