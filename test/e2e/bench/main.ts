/** What scripts/bench/plugin-chromium.mjs imports from its bundle of the Chromium bench's runner. */
export { runChromiumBench } from './run';
export { formatFigures } from './figures';
