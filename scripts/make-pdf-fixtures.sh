#!/usr/bin/env bash
# Remakes the PDF fixtures in test/fixtures/pdf/ from their sources (test/fixtures/pdf/src/), writes manifest.json and
# checks the pdf.js oracle (test/support/pdfjsOracle.mjs) against poppler's pdftotext. CI never runs this: the PDFs are
# committed. Usage: bash scripts/make-pdf-fixtures.sh [--remake-docx] [--only NAME[,NAME]] [--keep-temp]
# With --fill first, it makes the fill fixtures instead (issue 51: test/fixtures/pdf/fill/ from fill/src/, and their
# manifest.json with the values to fill and where each goes; scripts/pdf-fixtures/makeFill.mjs; checked by
# node scripts/fill-check.mjs): bash scripts/make-pdf-fixtures.sh --fill [--only NAME[,NAME]] [--keep-temp]
#
# Tools (Debian packages, installed here when missing and run as root): LibreOffice Writer, Ghostscript, qpdf,
# poppler-utils, Chromium, fonts (Liberation, DejaVu, IPAGothic for TrueType CJK, Noto CJK for the Type 3 variant).
#
# Deterministic: the same tool versions give the same bytes. SOURCE_DATE_EPOCH and TZ=UTC are set; Ghostscript honours
# them; LibreOffice's and Chromium's dates and every /ID (and LibreOffice's /DocChecksum) are overwritten in place with
# same-length values (pinVolatile in scripts/pdf-fixtures/pdfEdit.mjs), so no byte offset moves; qpdf runs with
# --deterministic-id, or --static-id/--static-aes-iv where it encrypts.
# Not deterministic: src/agreement.docx (a zip with LibreOffice's timestamps and ids), hence kept as committed and
# remade only with --remake-docx; the AES-256 files (qpdf draws a random file key whatever its flags), hence kept when
# their decrypted content is unchanged; and any change of LibreOffice, Chromium, Ghostscript, qpdf, poppler or font
# versions, which changes layout and bytes (the fixtures were made with LibreOffice 7.4, Chromium 156, Ghostscript
# 10.00, qpdf 11.3, poppler 22.12 on Debian 12).
set -euo pipefail
cd "$(dirname "$0")/.."

# command → Debian package that provides it (fonts are checked by file).
need=()
for pair in soffice:libreoffice-writer gs:ghostscript qpdf:qpdf pdftotext:poppler-utils pdftoppm:poppler-utils \
	chromium:chromium fc-list:fontconfig; do
	command -v "${pair%%:*}" >/dev/null 2>&1 || need+=("${pair#*:}")
done
for pair in /usr/share/fonts/truetype/liberation2:fonts-liberation2 /usr/share/fonts/truetype/dejavu:fonts-dejavu-core \
	/usr/share/fonts/opentype/ipafont-gothic:fonts-ipafont-gothic /usr/share/fonts/opentype/noto:fonts-noto-cjk; do
	[ -e "${pair%%:*}" ] || need+=("${pair#*:}")
done
if [ ${#need[@]} -gt 0 ]; then
	if [ "$(id -u)" = 0 ]; then
		apt-get update -qq
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"
	else
		echo "make-pdf-fixtures: missing Debian packages: ${need[*]} (run as root to install them)" >&2
		exit 1
	fi
fi

# pdfjs-dist needs Node >= 22: the `node` devDependency's binary.
NODE=node_modules/.bin/node
[ -x "$NODE" ] || { echo "make-pdf-fixtures: run npm install first ($NODE is missing)" >&2; exit 1; }

export TZ=UTC
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-1767225600} # 2026-01-01T00:00:00Z
if [ "${1:-}" = "--fill" ]; then
	shift
	exec "$NODE" scripts/pdf-fixtures/makeFill.mjs "$@"
fi
exec "$NODE" scripts/pdf-fixtures/make.mjs "$@"
