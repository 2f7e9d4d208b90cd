/** Preloaded with `node --import` into each CLI process of the load bench: prints its peak memory on exit. */
process.on('exit', () => {
	process.stderr.write(`\nvq-bench-maxrss-kb ${process.resourceUsage().maxRSS}\n`);
});
