#!/usr/bin/env bash
# Writes the colour fixtures in test/imaging/fixtures/colour/: small (192 × 128) images of one saturated
# test picture (ImageMagick's fractal `plasma:` with a fixed seed, blurred a little so the files stay
# small, saturation raised), each tagged the way a print file can be: an ICC profile (sRGB, Adobe RGB
# (1998), Display P3, ProPhoto, grey, CMYK), PNG's own chunks (sRGB, gAMA + cHRM), EXIF's ColorSpace,
# or nothing. The files are committed; run this again only to remake them, then read the listing it
# prints against test/imaging/fixtures/colour/README.md (what each file must read as).
#
# Needs: ImageMagick 6 with lcms (`convert`, `identify`), exiftool, libtiff's tools (`tiffcp`,
# `tiffdump`), the profiles of Debian's colord-data, icc-profiles-free and ghostscript packages under
# /usr/share/color/icc, and the project's Node (`npm exec`), which writes the Display P3 profile
# (scripts/lib/display-p3-icc.ts: no system profile for it exists here).
#
# The pixels of the RGB fixtures are the test picture's values ASSIGNED to each profile (not converted
# into it), so the wide-gamut files hold colours sRGB cannot show and a viewer that ignores the profile
# shows visibly different colours: what a real wide-gamut export looks like.
#
#   scripts/make-colour-fixtures.sh
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=test/imaging/fixtures/colour
ICC=/usr/share/color/icc
SRGB=$ICC/colord/sRGB.icc
ADOBE=$ICC/colord/AdobeRGB1998.icc
PROPHOTO=$ICC/colord/ProPhotoRGB.icc
GREY=$ICC/Gray.icc
CMYK=$ICC/ghostscript/default_cmyk.icc
for profile in "$SRGB" "$ADOBE" "$PROPHOTO" "$GREY" "$CMYK"; do
	[ -r "$profile" ] || { echo "missing profile $profile (apt-get install colord-data icc-profiles-free ghostscript)" >&2; exit 1; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$OUT"

# PNGs hold no chunk that changes from run to run or says nothing of colour, and only the colour chunk
# asked for: ImageMagick writes iCCP for a profile, and cHRM (and gAMA) of its own unless excluded. (Never
# exclude zTXt: ImageMagick then drops iCCP too.)
ICCP_ONLY=(-define png:exclude-chunk=cHRM,gAMA,sRGB,bKGD,tIME,tEXt,date)
BARE_PNG=(-strip -define png:exclude-chunk=cHRM,gAMA,sRGB,iCCP,bKGD,tIME,tEXt,date)

# The test picture, 16 bits a sample (the 16-bit fixtures keep real 16-bit values), and at 8 bits.
convert -seed 39 -size 192x128 plasma: -blur 0x2 -modulate 100,170 -depth 16 -strip "$work/picture16.png"
convert "$work/picture16.png" -depth 8 "$work/picture.png"
npm exec --silent -c "node scripts/lib/display-p3-icc.ts '$work/display-p3.icc'"

# The copies of sRGB.icc and the Display P3 profile that the tests convert with (CI has no colord-data).
cp "$SRGB" "$OUT/sRGB.icc"
cp "$work/display-p3.icc" "$OUT/display-p3.icc"

# JPEGs with an embedded ICC profile (APP2).
convert "$work/picture.png" -profile "$SRGB" -quality 92 "$OUT/srgb.jpg"
convert "$work/picture.png" -profile "$ADOBE" -quality 92 "$OUT/adobe-rgb.jpg"
# CMYK with a profile: the picture as sRGB, converted by lcms into the SWOP press profile.
convert "$work/picture.png" -profile "$SRGB" -profile "$CMYK" -quality 92 "$OUT/cmyk.jpg"
convert "$work/picture.png" -profile "$SRGB" -profile "$CMYK" -compress zip "$OUT/cmyk.tif"

# A PNG with a Display P3 iCCP chunk.
convert "$work/picture.png" -profile "$work/display-p3.icc" "${ICCP_ONLY[@]}" "$OUT/display-p3.png"

# ProPhoto, 16 bits a sample: ImageMagick writes tag 34675, libtiff's tiffcp recompresses it (Deflate with
# the horizontal predictor), keeping the tag.
convert "$work/picture16.png" -profile "$PROPHOTO" -depth 16 -compress none "$work/prophoto.tif"
tiffcp -c zip:2 "$work/prophoto.tif" "$OUT/prophoto-16.tif"

# Grey with a grey profile: Gray.icc's curve is linear (gamma 1.0), so its values are light, not sRGB's.
convert "$work/picture.png" -colorspace Gray -depth 8 -profile "$GREY" "${ICCP_ONLY[@]}" "$OUT/grey-linear.png"

# No tagging at all.
convert "$work/picture.png" "${BARE_PNG[@]}" "$OUT/untagged.png"

# PNG's own sRGB chunk (exiftool writes it: ImageMagick writes gAMA + cHRM instead): 16-bit RGB, and
# 8-bit RGBA with alpha falling from 1 (left) to 0.2 (right).
convert "$work/picture16.png" -depth 16 -define png:color-type=2 "${BARE_PNG[@]}" "$OUT/rgb-16.png"
convert "$work/picture.png" -alpha set -channel A -fx '1-0.8*i/w' +channel -depth 8 -define png:color-type=6 \
	"${BARE_PNG[@]}" "$OUT/rgba.png"
exiftool -q -overwrite_original -PNG:SRGBRendering=Perceptual "$OUT/rgb-16.png" "$OUT/rgba.png"

# gAMA + cHRM only: Adobe RGB (1998)'s primaries and D65 white (ImageMagick writes cHRM), gamma 1/2.2
# (exiftool writes gAMA: ImageMagick leaves it out at that value). The same pixels as adobe-rgb.jpg.
convert "$work/picture.png" "${BARE_PNG[@]}" -define png:include-chunk=cHRM \
	-white-point 0.3127,0.329 -red-primary 0.64,0.33 -green-primary 0.21,0.71 -blue-primary 0.15,0.06 \
	"$OUT/gamma-chrm.png"
exiftool -q -overwrite_original -PNG:Gamma=2.2 "$OUT/gamma-chrm.png"

# A JPEG without a profile whose EXIF says ColorSpace = 1 (sRGB).
convert "$work/picture.png" -strip -quality 92 "$OUT/exif-srgb.jpg"
exiftool -q -overwrite_original -EXIF:ColorSpace#=1 "$OUT/exif-srgb.jpg"

# What each file reads as: compare with the README.
for file in "$OUT"/*.jpg "$OUT"/*.png "$OUT"/*.tif; do
	echo "== $(basename "$file") ($(stat -c %s "$file") bytes)"
	identify -format '   identify: %m %wx%h %[colorspace] %z-bit %[channels] type=%[type] icc=%[profile:icc]\n' "$file" 2>/dev/null || identify "$file"
	exiftool -s -ColorType -BitDepth -BitsPerSample -PhotometricInterpretation -ColorSpace -ProfileDescription \
		-ColorSpaceData -ProfileClass -ProfileVersion -Gamma -WhitePointX -RedX "$file" | sed 's/^/   /'
	case "$file" in
	*.png) echo "   chunks: $(exiftool -v1 "$file" | sed -n 's/^PNG \([A-Za-z]\{4\}\) .*/\1/p' | tr '\n' ' ')" ;;
	*.tif) echo "   tags: $(tiffdump "$file" | sed -n 's/^\([A-Za-z0-9 ]*\) (\([0-9]*\)) [A-Z]* .*/\2/p' | tr '\n' ' ')" ;;
	esac
done
