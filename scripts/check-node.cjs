/**
 * `npm install` runs this first (preinstall), with whatever Node started npm, and last (postinstall,
 * with --after). Every npm script runs on the Node 24 the project installs (the `node` devDependency),
 * but npm itself needs Node 20 or newer to install the project, and wrangler and a few tools declare
 * Node 22 in their engines, so npm on Node 20 or 21 prints EBADENGINE warnings that mean nothing here.
 * Plain CommonJS, no syntax newer than Node 12: it must be able to say what to do on an old Node.
 */
"use strict";

const RECOMMENDED = "22.12";

/** The Node that started npm: this process before install, the user agent's after (scripts then run on Node 24). */
function installingNode() {
	const agent = process.env.npm_config_user_agent || "";
	const match = / node\/v(\d+)\.(\d+)/.exec(agent);
	if (process.argv.includes("--after") && match) return { major: Number(match[1]), minor: Number(match[2]) };
	const [major, minor] = process.versions.node.split(".").map(Number);
	return { major, minor };
}

const { major, minor } = installingNode();
if (!process.argv.includes("--after")) {
	if (major < 20) {
		console.error(
			`This project needs Node.js 20 or newer to install; this is Node ${process.versions.node}. ` +
				`Install Node ${RECOMMENDED} or newer (nodejs.org, or \`nvm install 22\`), then run npm install again. ` +
				"Every npm script then runs on the Node 24 the project installs with itself.",
		);
		process.exit(1);
	}
} else if (major < 22 || (major === 22 && minor < 12)) {
	console.log(
		`Installed with Node ${major}.${minor}: the EBADENGINE warnings above (wrangler, miniflare and a few tools ask for Node 22) ` +
			`are expected and harmless, since every npm script runs on the Node 24 installed with the project. ` +
			`Node ${RECOMMENDED} or newer installs without them.`,
	);
}
