/** Reading what Chromium rendered, as a person or a printer would get it: a PDF's pages and text, a PNG's pixels. */

import { extractImages, extractLinks, extractText, getDocumentProxy, getMeta } from "unpdf";
import UPNG from "upng-js";

export type PdfReading = {
	/** Each page's size in PDF points (1/72 in). */
	pageSizes: Array<{ width: number; height: number }>;
	/** All pages' text, whitespace collapsed to single spaces. */
	text: string;
	/** The document's Title (Chromium takes the page's <title>). */
	title: string;
	links: string[];
	/** Pixel sizes of the images embedded on the first page. */
	images: Array<{ width: number; height: number }>;
};

/** Letter and A4 in PDF points. */
export const PAPER_POINTS = {
	letter: { width: 612, height: 792 },
	a4: { width: 595.28, height: 841.89 },
} as const;

/** Parses a PDF with pdf.js (through unpdf) and reads its pages, text, title, links and images. */
export async function readPdf(bytes: Uint8Array): Promise<PdfReading> {
	// pdf.js takes ownership of the buffer it is given, so it gets a copy.
	const document = await getDocumentProxy(new Uint8Array(bytes));
	try {
		const pageSizes: PdfReading["pageSizes"] = [];
		for (let number = 1; number <= document.numPages; number++) {
			const viewport = (await document.getPage(number)).getViewport({ scale: 1 });
			pageSizes.push({ width: viewport.width, height: viewport.height });
		}
		const { text } = await extractText(document, { mergePages: true });
		const { info } = await getMeta(document);
		const { links } = await extractLinks(document);
		const images = await extractImages(document, 1);
		return {
			pageSizes,
			text: text.replace(/\s+/g, " ").trim(),
			title: typeof info.Title === "string" ? info.Title : "",
			links,
			images: images.map((image) => ({ width: image.width, height: image.height })),
		};
	} finally {
		await document.destroy();
	}
}

export type PngReading = {
	width: number;
	height: number;
	/** Share of pixels that are not near-white: 0 for a blank page. */
	inkShare: number;
	/** How many pixels are within a small distance of the colour. */
	pixelsNear(rgb: readonly [number, number, number]): number;
};

/** Decodes a PNG (upng-js) and measures how much of it is drawn on. */
export function readPng(bytes: Uint8Array): PngReading {
	const decoded = UPNG.decode(new Uint8Array(bytes).buffer);
	const frame = UPNG.toRGBA8(decoded)[0];
	if (frame === undefined) throw new Error("the PNG has no frame");
	const rgba = new Uint8Array(frame);
	const pixels = decoded.width * decoded.height;
	let inked = 0;
	for (let offset = 0; offset < rgba.length; offset += 4) {
		if ((rgba[offset] ?? 255) < 230 || (rgba[offset + 1] ?? 255) < 230 || (rgba[offset + 2] ?? 255) < 230) inked++;
	}
	return {
		width: decoded.width,
		height: decoded.height,
		inkShare: inked / pixels,
		pixelsNear: ([red, green, blue]) => {
			let count = 0;
			for (let offset = 0; offset < rgba.length; offset += 4) {
				const distance =
					Math.abs((rgba[offset] ?? 0) - red) +
					Math.abs((rgba[offset + 1] ?? 0) - green) +
					Math.abs((rgba[offset + 2] ?? 0) - blue);
				if (distance <= 24) count++;
			}
			return count;
		},
	};
}
