/** temp */
module.exports = {
	forbidden: [{ name: "no-circular", severity: "error", from: {}, to: { circular: true } }],
	options: {
		tsPreCompilationDeps: true,
		doNotFollow: { path: "node_modules" },
		tsConfig: { fileName: "tsconfig.json" },
	},
};
