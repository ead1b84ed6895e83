/** Whether this runs in CI: `CI` set to anything but empty, `false` or `0` (as CI services set it). */
export function isCi(): boolean {
	const value = process.env.CI ?? "";
	return value !== "" && value !== "false" && value !== "0";
}
