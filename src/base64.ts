/** Standard base64 of bytes; built in chunks so a logo of megabytes does not overflow the argument list. */
export function base64Of(bytes: Uint8Array): string {
	let binary = "";
	const chunk = 0x8000;
	for (let start = 0; start < bytes.length; start += chunk) {
		binary += String.fromCharCode(...bytes.subarray(start, start + chunk));
	}
	return btoa(binary);
}

/** Unpadded base64url of bytes (RFC 4648 section 5): safe in cookies and form fields as is. */
export function base64UrlOf(bytes: Uint8Array): string {
	return base64Of(bytes).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** The bytes of standard base64 text, or null when it is not base64. */
export function bytesOfBase64(text: string): Uint8Array | null {
	if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return null;
	try {
		return Uint8Array.from(atob(text), (character) => character.charCodeAt(0));
	} catch {
		return null;
	}
}
