/**
 * The brand page: the brand profile of the page's mode as every role reads it, and for the roles that
 * may edit it the form (`PUT /v1/branding`'s fields and the logo upload), the delete with its
 * confirmation, and the link to the sample packing slip.
 */
import type { BrandProfileRow } from "../branding/store.ts";
import { returnAddressOf } from "../branding/store.ts";
import { bytesText, formatTime } from "../http/format.ts";
import type { PrintFileRow } from "../print-files/store.ts";
import { type BrandFormValues, RETURN_ADDRESS_FIELDS } from "./brand-form.ts";
import { type LayoutViewer, PartnerLayout } from "./layout.tsx";
import { type ConsoleMode, withMode } from "./scope.ts";

/** What a done word says after a brand form: fixed sentences, never text from the address. */
export const BRAND_DONE = {
	saved: "The brand profile is saved: packing slips printed from now on carry it.",
	deleted: "The brand profile is deleted: this mode's packing slips are neutral from now on.",
} as const;

export type BrandPageProps = {
	viewer: LayoutViewer;
	mode: ConsoleMode;
	profile: BrandProfileRow | null;
	/** The logo's print file, when the profile has one and it is still found. */
	logo: Pick<PrintFileRow, "filename" | "format" | "width_px" | "height_px" | "size_bytes"> | null;
	canEdit: boolean;
	/** The form's values when a save was refused; else the profile's. */
	values: BrandFormValues | null;
	done: string | null;
	/** A refusal of the form, in words. */
	refusal: string | null;
	/** Which form the refusal is about. */
	refusedForm?: "save" | "delete";
};

const BRAND_CSS = `
.brand-grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); gap: 0 1.25rem; }
textarea { min-height: 6rem; }
.hint { font-size: .92rem; color: var(--muted); margin: .2rem 0 0; }
.check { display: flex; gap: .5rem; align-items: flex-start; font-weight: 600; margin-top: .9rem; }
.check input { margin-top: .3rem; }
`;

/** The profile's values as the form shows them. */
function valuesOf(profile: BrandProfileRow | null): BrandFormValues {
	const address = profile === null ? null : returnAddressOf(profile);
	const values: BrandFormValues = {
		brand_name: profile?.brand_name ?? "",
		support_email: profile?.support_email ?? "",
		support_url: profile?.support_url ?? "",
		packing_slip_message: profile?.packing_slip_message ?? "",
	};
	for (const { name } of RETURN_ADDRESS_FIELDS) values[`return_${name}`] = address?.[name] ?? "";
	return values;
}

function LogoWords({ profile, logo }: Pick<BrandPageProps, "profile" | "logo">) {
	if (profile?.logo_print_file_id == null) return <>No logo</>;
	if (logo === null) return <>A file that is no longer kept: the slip prints without a logo</>;
	const size = logo.width_px === null || logo.height_px === null ? "" : `, ${logo.width_px} × ${logo.height_px} px`;
	return (
		<>
			{logo.filename ?? "Unnamed file"} ({logo.format?.toUpperCase() ?? "not read yet"}
			{size}
			{logo.size_bytes === null ? "" : `, ${bytesText(logo.size_bytes)}`})
		</>
	);
}

function ProfileDetails({ profile, logo }: Pick<BrandPageProps, "profile" | "logo">) {
	if (profile === null) {
		return <p>There is no brand profile in this mode yet: its packing slips are neutral, with no brand at all.</p>;
	}
	const address = returnAddressOf(profile);
	return (
		<dl>
			<dt>Brand name</dt>
			<dd>{profile.brand_name}</dd>
			<dt>Logo</dt>
			<dd>
				<LogoWords profile={profile} logo={logo} />
			</dd>
			<dt>Return address</dt>
			<dd>
				{address === null
					? "None"
					: [
							address.name,
							address.address1,
							address.address2,
							address.city,
							address.state,
							address.zip,
							address.country,
						]
							.filter((part) => part !== undefined && part !== "")
							.join(", ")}
			</dd>
			<dt>Support email</dt>
			<dd>{profile.support_email ?? "None"}</dd>
			<dt>Support web address</dt>
			<dd>{profile.support_url ?? "None"}</dd>
			<dt>Packing-slip message</dt>
			<dd>{profile.packing_slip_message ?? "None"}</dd>
			<dt>Last changed</dt>
			<dd>{formatTime(profile.updated_at)}</dd>
		</dl>
	);
}

function TextField(props: {
	name: string;
	label: string;
	value: string;
	type?: string;
	hint?: string;
	required?: boolean;
	max?: number;
}) {
	return (
		<div>
			<label for={props.name}>{props.label}</label>
			<input
				id={props.name}
				name={props.name}
				type={props.type ?? "text"}
				value={props.value}
				required={props.required}
				maxlength={props.max}
				aria-describedby={props.hint === undefined ? undefined : `${props.name}-hint`}
			/>
			{props.hint === undefined ? null : (
				<p class="hint" id={`${props.name}-hint`}>
					{props.hint}
				</p>
			)}
		</div>
	);
}

function EditForm({
	viewer,
	mode,
	profile,
	values,
}: Pick<BrandPageProps, "viewer" | "mode" | "profile"> & { values: BrandFormValues }) {
	const value = (name: string) => values[name] ?? "";
	return (
		<form method="post" action={withMode("/partner/brand", mode)} enctype="multipart/form-data">
			<input type="hidden" name="_csrf" value={viewer.csrfToken} />
			<div class="brand-grid">
				<TextField
					name="brand_name"
					label="Brand name"
					value={value("brand_name")}
					required
					max={100}
					hint="Printed at the top of the slip."
				/>
				<TextField name="support_email" label="Support email" type="email" value={value("support_email")} />
				<TextField
					name="support_url"
					label="Support web address"
					type="url"
					value={value("support_url")}
					hint="Such as https://example.com/help"
				/>
			</div>
			<label for="packing_slip_message">Packing-slip message</label>
			<textarea
				id="packing_slip_message"
				name="packing_slip_message"
				maxlength={1000}
				aria-describedby="packing_slip_message-hint"
			>
				{value("packing_slip_message")}
			</textarea>
			<p class="hint" id="packing_slip_message-hint">
				Printed on every slip; at most 1000 characters, line breaks kept.
			</p>
			<fieldset>
				<legend>Return address (leave every line empty for none)</legend>
				<div class="brand-grid">
					{RETURN_ADDRESS_FIELDS.map(({ name, label }) => (
						<TextField name={`return_${name}`} label={label} value={value(`return_${name}`)} />
					))}
				</div>
			</fieldset>
			<fieldset>
				<legend>Logo</legend>
				<label for="logo">{profile?.logo_print_file_id == null ? "Upload a logo" : "Replace the logo"}</label>
				<input id="logo" name="logo" type="file" accept="image/png,image/jpeg" aria-describedby="logo-hint" />
				<p class="hint" id="logo-hint">
					A PNG or JPEG, at most 2000 px on its long side and 4 MiB.
				</p>
				{profile?.logo_print_file_id == null ? null : (
					<label class="check" for="remove_logo">
						<input id="remove_logo" name="remove_logo" type="checkbox" value="yes" />
						Remove the logo
					</label>
				)}
			</fieldset>
			<button type="submit">{profile === null ? "Create the brand profile" : "Save the brand profile"}</button>
		</form>
	);
}

function DeleteForm({ viewer, mode }: Pick<BrandPageProps, "viewer" | "mode">) {
	return (
		<form method="post" action={withMode("/partner/brand/delete", mode)}>
			<input type="hidden" name="_csrf" value={viewer.csrfToken} />
			<label class="check" for="confirm_delete">
				<input id="confirm_delete" name="confirm" type="checkbox" value="yes" required />
				Yes, delete this mode's brand profile: its slips become neutral
			</label>
			<button type="submit" class="danger">
				Delete the brand profile
			</button>
		</form>
	);
}

/** The brand page of one mode. */
export function BrandPage(props: BrandPageProps) {
	const { viewer, mode, profile, canEdit, done, refusal, refusedForm } = props;
	const modeWords = mode === "test" ? "test" : "live";
	return (
		<PartnerLayout title="Brand" viewer={viewer} mode={mode} section="brand" css={BRAND_CSS}>
			<h1>Brand</h1>
			<p class="muted">
				The {modeWords} brand profile: {modeWords} orders' packing slips print it. Live and test each have their own; a
				change here never touches the other.
			</p>
			{done === null ? null : <p role="status">{done}</p>}
			{refusal === null || refusedForm === "save" ? null : <div role="alert">{refusal}</div>}
			<section class="panel" aria-labelledby="profile-heading">
				<h2 id="profile-heading">The {modeWords} profile</h2>
				<ProfileDetails profile={profile} logo={props.logo} />
				<p>
					<a href={withMode("/partner/brand/slip-preview", mode)}>See a sample packing slip as a buyer receives it</a>
				</p>
			</section>
			{canEdit ? (
				<section class="panel" aria-labelledby="edit-heading">
					<h2 id="edit-heading">{profile === null ? "Create the profile" : "Change the profile"}</h2>
					{refusal === null || refusedForm !== "save" ? null : <div role="alert">{refusal}</div>}
					<EditForm viewer={viewer} mode={mode} profile={profile} values={props.values ?? valuesOf(profile)} />
				</section>
			) : (
				<p class="muted">Your role reads the brand profile; an owner or a developer changes it.</p>
			)}
			{canEdit && profile !== null ? (
				<section class="panel" aria-labelledby="delete-heading">
					<h2 id="delete-heading">Delete the profile</h2>
					<DeleteForm viewer={viewer} mode={mode} />
				</section>
			) : null}
		</PartnerLayout>
	);
}
