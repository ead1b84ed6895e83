/**
 * The work ticket's cut list: print and paper, each mat's outer size, opening and borders, the
 * reveal, glazing and backing, the moulding's four rails with their long points, and hardware.
 */
import type { CutList } from "../framing/cut-list.ts";
import { inchesText, matBordersText, sizeText } from "../framing/words.ts";
import type { Look } from "./ticket-look.ts";

/** A measure that never breaks across lines ("7 3/4 × 9 3/4 in" split after the 7 reads as 7 in). */
function Measure({ text }: { text: string }) {
	return <span class="measure">{text}</span>;
}

/** A length in words: whole inches and a fraction, or a fraction alone, then "in". */
const LENGTH = /(\d+ \d+\/\d+ in|\d+(?:\/\d+)? in)/;

/** Words with lengths in them (the mat's borders), each length kept on one line, the words free to wrap. */
function Measured({ text }: { text: string }) {
	return <>{text.split(LENGTH).map((part, index) => (index % 2 === 1 ? <Measure text={part} /> : part))}</>;
}

/** Every part to cut or fetch for one piece, a row each. */
export function CutTable({ cut, look }: { cut: CutList; look: Look }) {
	return (
		<table>
			<tbody>
				<tr>
					<th scope="row">Print</th>
					<td>
						<Measure text={sizeText(cut.print)} /> on {look.name("paper", cut.paper)};{" "}
						{cut.fit === "fill" ? "fill (crop to the print area)" : "fit (whole image, white border)"}
					</td>
				</tr>
				{cut.mats.map((mat) => (
					<tr>
						<th scope="row">{mat.layer === "top" ? "Mat" : "Inner mat"}</th>
						<td>
							{look.name("mat", mat.slug)}: cut <Measure text={sizeText(mat.outer)} />, opening{" "}
							<Measure text={sizeText(mat.opening)} />, borders <Measured text={matBordersText(mat.borders, null)} />
						</td>
					</tr>
				))}
				{cut.reveal_in === null ? null : (
					<tr>
						<th scope="row">Reveal</th>
						<td>
							<Measure text={`${inchesText(cut.reveal_in)} in`} /> of the inner mat shows
						</td>
					</tr>
				)}
				{cut.glazing === null ? null : (
					<tr>
						<th scope="row">Glazing</th>
						<td>
							{look.name("glazing", cut.glazing.slug)}: cut <Measure text={sizeText(cut.glazing.size)} />
						</td>
					</tr>
				)}
				{cut.backing === null ? null : (
					<tr>
						<th scope="row">Backing</th>
						<td>
							Acid-free foam board: cut <Measure text={sizeText(cut.backing)} />
						</td>
					</tr>
				)}
				{cut.frame === null ? (
					<tr>
						<th scope="row">Moulding</th>
						<td>None: unframed</td>
					</tr>
				) : (
					<tr>
						<th scope="row">Moulding</th>
						<td>
							<Measure text={look.name("frame", cut.frame.slug)} /> (
							<Measure text={`${inchesText(cut.frame.width_in)} in`} /> face), {cut.frame.footage_ft} ft with waste.
							Four rails, both ends mitred at 45°:
							<ul>
								{cut.frame.rails.map((rail) => (
									<li>
										{rail.side}: long point <Measure text={`${inchesText(rail.long_point_in)} in`} /> (short point{" "}
										<Measure text={`${inchesText(rail.short_point_in)} in`} />)
									</li>
								))}
							</ul>
						</td>
					</tr>
				)}
				<tr>
					<th scope="row">Outside</th>
					<td>
						<Measure text={sizeText(cut.outside)} />; {cut.united_inches} united inches
					</td>
				</tr>
				<tr>
					<th scope="row">Hardware</th>
					<td>
						<ul>
							{cut.hardware.map((part) => (
								<li>{part}</li>
							))}
						</ul>
					</td>
				</tr>
			</tbody>
		</table>
	);
}
