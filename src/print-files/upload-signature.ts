/** HMAC signatures of the worker's own upload URLs: `PUT /v1/uploads/{id}?expires=<unix s>&sig=<hex>`. */

const encoder = new TextEncoder();

function hmacKey(secret: string, usage: "sign" | "verify"): Promise<CryptoKey> {
	return crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [usage]);
}

/** What is signed: the file id and the expiry, so neither can be changed without the secret. */
function signedText(fileId: string, expiresUnix: number): Uint8Array {
	return encoder.encode(`upload\n${fileId}\n${expiresUnix}`);
}

/** Hex HMAC-SHA256 of an upload's id and expiry. */
export async function signUpload(secret: string, fileId: string, expiresUnix: number): Promise<string> {
	const mac = await crypto.subtle.sign("HMAC", await hmacKey(secret, "sign"), signedText(fileId, expiresUnix));
	return Array.from(new Uint8Array(mac), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Whether `signature` is the upload's HMAC; `crypto.subtle.verify` compares in constant time. */
export async function verifyUpload(
	secret: string,
	fileId: string,
	expiresUnix: number,
	signature: string,
): Promise<boolean> {
	if (!/^[0-9a-f]{64}$/.test(signature)) return false;
	const bytes = new Uint8Array(32);
	for (let index = 0; index < 32; index++)
		bytes[index] = Number.parseInt(signature.slice(index * 2, index * 2 + 2), 16);
	return crypto.subtle.verify("HMAC", await hmacKey(secret, "verify"), bytes, signedText(fileId, expiresUnix));
}
