/**
 * `npm run sdk:build`: builds the SDK (clients/typescript) into clients/typescript/dist.
 * `npm run sdk:pack`: builds it and packs it with `npm pack` into clients/typescript/pack
 * (or the folder given after `--`), printing the tarball's path and size. Nothing is published.
 */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { buildSdk, packSdk, SDK_DIST, SDK_FOLDER } from "./lib/sdk-package.ts";

const [command, folder] = process.argv.slice(2);
if (command !== "build" && command !== "pack") {
	console.error("Usage: node scripts/sdk.ts build | pack [folder]");
	process.exit(2);
}
const took = await buildSdk();
console.log(`Built ${path.relative(process.cwd(), SDK_DIST)} in ${took} ms.`);
if (command === "pack") {
	const destination = path.resolve(folder ?? path.join(SDK_FOLDER, "pack"));
	await mkdir(destination, { recursive: true });
	const { tarball, bytes } = await packSdk(destination);
	console.log(`Packed ${tarball}: ${(bytes / 1024).toFixed(1)} KiB. Install it with: npm install ${tarball}`);
}
