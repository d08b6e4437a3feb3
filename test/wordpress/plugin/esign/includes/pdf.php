<?php
/**
 * Files without a PDF library (none ships with Debian's WordPress): type detection by magic bytes,
 * page counting, and the signed PDF, written as an incremental update of the original (so the
 * original bytes stay intact and verifiable) or, for PNG/JPG originals, as a new PDF.
 */

defined('ABSPATH') || exit;

const ESIGN_LETTER = [612, 792];

const ESIGN_FILE_KINDS = [
	'pdf' => ['mime' => 'application/pdf', 'ext' => 'pdf'],
	'png' => ['mime' => 'image/png', 'ext' => 'png'],
	'jpg' => ['mime' => 'image/jpeg', 'ext' => 'jpg'],
];

/** 'pdf' | 'png' | 'jpg' by content, never by name; null otherwise. */
function esign_detect_type(string $bytes): ?string {
	if (strncmp($bytes, '%PDF-', 5) === 0) return 'pdf';
	if (strncmp($bytes, "\x89PNG\r\n\x1a\n", 8) === 0) return 'png';
	if (strncmp($bytes, "\xFF\xD8\xFF", 3) === 0) return 'jpg';
	return null;
}

/** Decodes a stream's bytes for the filters we can read (none or FlateDecode); null otherwise. */
function esign_pdf_decode(string $dict, string $data): ?string {
	if (!preg_match('~/Filter\s*(\[\s*)?/(\w+)~', $dict, $m)) return $data;
	if ($m[2] !== 'FlateDecode') return null;
	$out = @gzuncompress($data);
	if ($out === false) $out = @gzinflate(substr($data, 2));
	return $out === false ? null : $out;
}

/**
 * Every indirect object of the file, later definitions winning (as incremental updates intend):
 * [num => ['dict' => text before any stream, 'stream' => raw stream bytes or null]]. Objects inside
 * object streams (/Type /ObjStm) are unpacked too.
 */
function esign_pdf_objects(string $pdf): array {
	$objects = [];
	$pos = 0;
	$len = strlen($pdf);
	while ($pos < $len && preg_match('~(?<![\d])(\d+)\s+(\d+)\s+obj\b~', $pdf, $m, PREG_OFFSET_CAPTURE, $pos)) {
		$num = (int) $m[1][0];
		$start = $m[0][1] + strlen($m[0][0]);
		$end = strpos($pdf, 'endobj', $start);
		if ($end === false) break;
		$body = substr($pdf, $start, $end - $start);
		$stream = null;
		if (preg_match('~stream\r?\n~', $body, $s, PREG_OFFSET_CAPTURE)) {
			$dictText = substr($body, 0, $s[0][1]);
			$dataStart = $start + $s[0][1] + strlen($s[0][0]);
			// The stream may contain "endobj": trust a direct /Length, else look for endstream.
			if (preg_match('~/Length\s+(\d+)(?!\s+\d+\s+R)~', $dictText, $l) && $dataStart + (int) $l[1] <= $len) {
				$stream = substr($pdf, $dataStart, (int) $l[1]);
				$after = strpos($pdf, 'endobj', $dataStart + (int) $l[1]);
				$end = $after === false ? $end : $after;
			} else {
				$es = strpos($pdf, 'endstream', $dataStart);
				$stream = substr($pdf, $dataStart, ($es === false ? $end : $es) - $dataStart);
				$stream = preg_replace('~\r?\n$~', '', $stream);
				$after = $es === false ? false : strpos($pdf, 'endobj', $es);
				$end = $after === false ? $end : $after;
			}
			$body = $dictText;
		}
		$objects[$num] = ['dict' => trim($body), 'stream' => $stream];
		$pos = $end + 6;
	}
	foreach ($objects as $num => $o) {
		if ($o['stream'] === null || !preg_match('~/Type\s*/ObjStm\b~', $o['dict'])) continue;
		$data = esign_pdf_decode($o['dict'], $o['stream']);
		if ($data === null || !preg_match('~/N\s+(\d+)~', $o['dict'], $n) || !preg_match('~/First\s+(\d+)~', $o['dict'], $f)) continue;
		$header = preg_split('~\s+~', trim(substr($data, 0, (int) $f[1])));
		$pairs = [];
		for ($i = 0; $i + 1 < count($header) && count($pairs) < (int) $n[1]; $i += 2) $pairs[] = [(int) $header[$i], (int) $header[$i + 1]];
		foreach ($pairs as $i => [$inner, $offset]) {
			$next = isset($pairs[$i + 1]) ? $pairs[$i + 1][1] : strlen($data) - (int) $f[1];
			// An object defined directly later in the file (an update) wins over the packed one.
			if (!isset($objects[$inner]) || $objects[$inner]['stream'] !== null && preg_match('~/Type\s*/ObjStm~', $objects[$inner]['dict'])) {
				$objects[$inner] = ['dict' => trim(substr($data, (int) $f[1] + $offset, $next - $offset)), 'stream' => null, 'packed' => true];
			}
		}
	}
	return $objects;
}

/** Top-level entries of a dictionary text `<< /Key value ... >>` as [name => raw value text]. */
function esign_pdf_dict(string $text): array {
	$text = trim($text);
	$open = strpos($text, '<<');
	if ($open === false) return [];
	$i = $open + 2;
	$len = strlen($text);
	$entries = [];
	while ($i < $len) {
		while ($i < $len && ctype_space($text[$i])) $i++;
		if ($i >= $len || substr($text, $i, 2) === '>>') break;
		if ($text[$i] !== '/') return $entries; // malformed: keep what we have
		preg_match('~/[^\s/<>\[\]()]*~', $text, $k, 0, $i);
		$key = substr($k[0], 1);
		$i += strlen($k[0]);
		$start = $i;
		$i = esign_pdf_skip_value($text, $i);
		$entries[$key] = trim(substr($text, $start, $i - $start));
	}
	return $entries;
}

/** The end offset of the PDF value starting at $i (after whitespace). */
function esign_pdf_skip_value(string $t, int $i): int {
	$len = strlen($t);
	while ($i < $len && ctype_space($t[$i])) $i++;
	if ($i >= $len) return $i;
	$c = $t[$i];
	if (substr($t, $i, 2) === '<<') {
		$depth = 0;
		while ($i < $len) {
			if (substr($t, $i, 2) === '<<') { $depth++; $i += 2; continue; }
			if (substr($t, $i, 2) === '>>') { $depth--; $i += 2; if ($depth === 0) return $i; continue; }
			if ($t[$i] === '(') { $i = esign_pdf_skip_value($t, $i); continue; }
			$i++;
		}
		return $i;
	}
	if ($c === '[') {
		$depth = 0;
		while ($i < $len) {
			if ($t[$i] === '[') $depth++;
			elseif ($t[$i] === ']') { $depth--; if ($depth === 0) return $i + 1; }
			elseif ($t[$i] === '(') { $i = esign_pdf_skip_value($t, $i); continue; }
			$i++;
		}
		return $i;
	}
	if ($c === '(') {
		$depth = 0;
		while ($i < $len) {
			if ($t[$i] === '\\') { $i += 2; continue; }
			if ($t[$i] === '(') $depth++;
			elseif ($t[$i] === ')') { $depth--; if ($depth === 0) return $i + 1; }
			$i++;
		}
		return $i;
	}
	if ($c === '<') return (strpos($t, '>', $i) ?: $len - 1) + 1;
	if ($c === '/') { preg_match('~/[^\s/<>\[\]()]*~', $t, $m, 0, $i); return $i + strlen($m[0]); }
	// A reference "N G R", a number, a boolean or null.
	if (preg_match('~\G\d+\s+\d+\s+R~', $t, $m, 0, $i)) return $i + strlen($m[0]);
	preg_match('~\G[^\s/<>\[\]()]+~', $t, $m, 0, $i);
	return $i + strlen($m[0] ?? ' ');
}

function esign_pdf_ref(?string $value): ?int {
	return $value !== null && preg_match('~^(\d+)\s+\d+\s+R$~', trim($value), $m) ? (int) $m[1] : null;
}

/** The object number of the catalog: the last /Root in the file, else any /Type /Catalog. */
function esign_pdf_root(string $pdf, array $objects): ?int {
	if (preg_match_all('~/Root\s+(\d+)\s+\d+\s+R~', $pdf, $m) && isset($objects[(int) end($m[1])])) return (int) end($m[1]);
	foreach ($objects as $num => $o) if (preg_match('~/Type\s*/Catalog\b~', $o['dict'])) return $num;
	return null;
}

/** Leaf pages in order: [[num, inherited entries (MediaBox, CropBox, Rotate, Resources), the page's own included]]. */
function esign_pdf_pages(array $objects, int $node, array $inherited = [], int $depth = 0): array {
	if ($depth > 32 || !isset($objects[$node])) return [];
	$dict = esign_pdf_dict($objects[$node]['dict']);
	foreach (['MediaBox', 'CropBox', 'Rotate', 'Resources'] as $k) if (isset($dict[$k])) $inherited[$k] = $dict[$k];
	$type = $dict['Type'] ?? '';
	if ($type === '/Page' || !isset($dict['Kids'])) return [[$node, $inherited]];
	preg_match_all('~(\d+)\s+\d+\s+R~', $dict['Kids'], $kids);
	$pages = [];
	foreach ($kids[1] as $kid) $pages = array_merge($pages, esign_pdf_pages($objects, (int) $kid, $inherited, $depth + 1));
	return $pages;
}

/** A value as written, or the object a reference `N G R` points to (its text); null when absent. */
function esign_pdf_direct(array $objects, ?string $value): ?string {
	$ref = esign_pdf_ref($value);
	if ($ref === null) return $value === null ? null : trim($value);
	return isset($objects[$ref]) ? trim($objects[$ref]['dict']) : null;
}

/** Four numbers [llx, lly, urx, ury] in any corner order as [x0, y0, x1, y1] (lower-left, upper-right); null without area. */
function esign_pdf_rect(array $n): ?array {
	$box = [min($n[0], $n[2]), min($n[1], $n[3]), max($n[0], $n[2]), max($n[1], $n[3])];
	return $box[2] > $box[0] && $box[3] > $box[1] ? $box : null;
}

/** A box's text `[llx lly urx ury]` as esign_pdf_rect; null when it is not four numbers with an area. */
function esign_pdf_box(?string $value): ?array {
	if ($value === null || !preg_match('~^\[(.*)\]$~s', trim($value), $m)) return null;
	$n = preg_split('~\s+~', trim($m[1]), -1, PREG_SPLIT_NO_EMPTY);
	if (count($n) !== 4 || count(array_filter($n, 'is_numeric')) !== 4) return null;
	return esign_pdf_rect(array_map('floatval', $n));
}

/**
 * The page as displayed (the same reading as the sandbox's test/sandbox/pageView.js; the spec's "top-left origin" on a
 * rotated or cropped page): the CropBox within the MediaBox (the MediaBox when there is no CropBox or they do not
 * overlap), turned clockwise by /Rotate (a multiple of 90, normalised to 0, 90, 180 or 270; anything else counts as 0).
 * $entries: the page's inherited entries (esign_pdf_pages); $media: its MediaBox as [x0, y0, x1, y1].
 * Returns ['box' => [x0, y0, x1, y1], 'rotation' => int, 'width' => displayed width, 'height' => displayed height].
 */
function esign_pdf_view(array $objects, array $entries, array $media): array {
	$view = $media;
	$crop = esign_pdf_box(esign_pdf_direct($objects, $entries['CropBox'] ?? null));
	if ($crop) {
		$inside = esign_pdf_rect([max($crop[0], $media[0]), max($crop[1], $media[1]), min($crop[2], $media[2]), min($crop[3], $media[3])]);
		if ($inside) $view = $inside;
	}
	$rotate = esign_pdf_direct($objects, $entries['Rotate'] ?? null);
	$rotation = 0;
	if ($rotate !== null && is_numeric($rotate) && floor((float) $rotate) == (float) $rotate && fmod((float) $rotate, 90) == 0) {
		$rotation = ((((int) $rotate) % 360) + 360) % 360;
	}
	[$w, $h] = [$view[2] - $view[0], $view[3] - $view[1]];
	return ['box' => $view, 'rotation' => $rotation, 'width' => $rotation % 180 ? $h : $w, 'height' => $rotation % 180 ? $w : $h];
}

/**
 * The matrix from the displayed page with a bottom-left origin (x' = displayed X, y' = displayed height - displayed Y)
 * to user space: a displayed point (X, Y) on the view [x0 y0 x1 y1] lands at 0: (x0 + X, y1 - Y), 90: (x0 + Y, y0 + X),
 * 180: (x1 - X, y0 + Y), 270: (x1 - Y, y1 - X). A field's box stays an axis-aligned rectangle and its text reads upright.
 */
function esign_pdf_display_to_user(array $view): array {
	[$x0, $y0, $x1, $y1] = $view['box'];
	switch ($view['rotation']) {
		case 90: return [0, 1, -1, 0, $x1, $y0];
		case 180: return [-1, 0, 0, -1, $x1, $y1];
		case 270: return [0, -1, 1, 0, $x0, $y1];
		default: return [1, 0, 0, 1, $x0, $y0];
	}
}

/** Page count of a PDF; throws when the file cannot be read. Images count as one page. */
function esign_count_pages(string $bytes, string $kind): int {
	if ($kind !== 'pdf') return 1;
	$objects = esign_pdf_objects($bytes);
	$root = esign_pdf_root($bytes, $objects);
	if ($root !== null) {
		$pagesRef = esign_pdf_ref(esign_pdf_dict($objects[$root]['dict'])['Pages'] ?? null);
		if ($pagesRef !== null) {
			$n = count(esign_pdf_pages($objects, $pagesRef));
			if ($n > 0) return $n;
		}
	}
	throw new RuntimeException('The PDF file could not be read.');
}

// ---------------------------------------------------------------- drawing

/** A PDF string literal in WinAnsi (Helvetica's encoding); characters outside it become '?'. */
function esign_pdf_text(string $utf8): string {
	$s = @iconv('UTF-8', 'windows-1252//TRANSLIT', $utf8);
	if ($s === false) $s = preg_replace('~[^\x20-\x7e]~', '?', $utf8);
	return '(' . strtr($s, ['\\' => '\\\\', '(' => '\\(', ')' => '\\)', "\r" => ' ', "\n" => ' ']) . ')';
}

function esign_num(float $n): string {
	return rtrim(rtrim(number_format($n, 3, '.', ''), '0'), '.') ?: '0';
}

/** Content-stream operators drawing the filled fields of one page (fonts /EsF, /EsFI). */
function esign_pdf_stamps(array $fields, array $signers_by_id, float $box_x, float $box_y, float $height): string {
	$ops = '';
	foreach ($fields as $f) {
		if ((string) $f['value'] === '') continue;
		$w = (float) $f['width'];
		$h = (float) $f['height'];
		$x = $box_x + (float) $f['position_x'];
		$y = $box_y + $height - (float) $f['position_y'] - $h;
		if (in_array($f['field_type'], ['signature', 'initials'], true)) {
			$size = max(6, min(24, $h * 0.45));
			$ops .= sprintf("q 0.93 0.96 1 rg 0.1 0.25 0.6 RG 1 w %s %s %s %s re B Q\n", esign_num($x), esign_num($y), esign_num($w), esign_num($h));
			$ops .= sprintf("BT 0.05 0.15 0.5 rg /EsFI %s Tf %s %s Td %s Tj ET\n", esign_num($size), esign_num($x + 6), esign_num($y + $h / 2 - $size / 3), esign_pdf_text((string) $f['value']));
			$signer = $signers_by_id[(int) $f['signer_id']] ?? null;
			if ($signer && $h >= 30) {
				$ops .= sprintf("BT 0.3 0.3 0.3 rg /EsF 6 Tf %s %s Td %s Tj ET\n", esign_num($x + 4), esign_num($y + 3), esign_pdf_text('eSigned by ' . $signer['name'] . ' ' . ($signer['signed_at'] ?? '')));
			}
		} else {
			$text = $f['field_type'] === 'checkbox' ? 'X' : (string) $f['value'];
			$size = max(6, min((float) ($f['font_size'] ?: 12), $h * 0.7));
			$ops .= sprintf("BT 0 0 0 rg /EsF %s Tf %s %s Td %s Tj ET\n", esign_num($size), esign_num($x + 2), esign_num($y + ($h - $size) / 2 + 2), esign_pdf_text($text));
		}
	}
	return $ops;
}

/** The certificate page's content stream (fonts /EsF, /EsFB, /EsFI). */
function esign_pdf_certificate(array $doc, array $signers, array $events, int $pages): string {
	$ops = '';
	$y = 792 - 72;
	$line = function (string $text, float $size, string $font = '/EsF') use (&$ops, &$y) {
		$ops .= sprintf("BT %s %s Tf 72 %s Td %s Tj ET\n", $font, esign_num($size), esign_num($y), esign_pdf_text(mb_strimwidth_safe($text, 95)));
		$y -= $size + 5;
	};
	$line('Certificate of Completion', 20, '/EsFB');
	$y -= 16;
	$line(sprintf('Document: %s (id %s)', $doc['title'], $doc['id']), 10);
	$line('Original file SHA-256: ' . $doc['file_hash'], 10);
	$line('Completed: ' . $doc['completed_at'] . ' UTC', 10);
	$line('Pages in the original: ' . $pages, 10);
	$y -= 10;
	$line('Signers', 13, '/EsFB');
	foreach ($signers as $s) $line(sprintf('%s. %s <%s> - signed %s from %s', $s['signing_order'], $s['name'], $s['email'], $s['signed_at'], $s['signed_ip'] ?: 'unknown IP'), 10);
	$y -= 10;
	$line('Audit trail', 13, '/EsFB');
	foreach (array_slice($events, -30) as $e) {
		if ($y < 60) break;
		$line(trim($e['timestamp'] . '  ' . $e['action'] . ($e['signer'] ? ' (' . $e['signer'] . ')' : '') . '  ' . $e['ip_address']), 9);
	}
	$ops .= "BT /EsFI 8 Tf 72 36 Td (Generated by the eSign WordPress test site. Not a legally binding signature.) Tj ET\n";
	return $ops;
}

function mb_strimwidth_safe(string $s, int $max): string {
	return strlen($s) > $max * 2 ? substr($s, 0, $max * 2) . '...' : $s;
}

function esign_pdf_stream_object(int $num, string $dict_entries, string $data): string {
	$z = gzcompress($data);
	return "$num 0 obj\n<< $dict_entries /Length " . strlen($z) . " /Filter /FlateDecode >>\nstream\n$z\nendstream\nendobj\n";
}

function esign_pdf_fonts(int $first): array {
	$names = ['EsF' => 'Helvetica', 'EsFB' => 'Helvetica-Bold', 'EsFI' => 'Helvetica-Oblique'];
	$objects = [];
	$refs = '';
	$n = $first;
	foreach ($names as $name => $base) {
		$objects[$n] = "<< /Type /Font /Subtype /Type1 /BaseFont /$base /Encoding /WinAnsiEncoding >>";
		$refs .= "/$name $n 0 R ";
		$n++;
	}
	return [$objects, "<< $refs>>"];
}

/**
 * The signed PDF. $fields: the document's fields (with value); $signers ordered by signing order
 * (with signed_at, signed_ip); $events: audit events. Returns the PDF bytes.
 */
function esign_build_signed_pdf(string $original, string $kind, array $doc, array $fields, array $signers, array $events): string {
	$by_id = [];
	foreach ($signers as $s) $by_id[(int) $s['id']] = $s;
	$by_page = [];
	foreach ($fields as $f) $by_page[(int) $f['page_number']][] = $f;
	if ($kind !== 'pdf') return esign_image_pdf($original, $kind, $doc, $by_page, $by_id, $signers, $events);

	$objects = esign_pdf_objects($original);
	$root = esign_pdf_root($original, $objects);
	$catalog = $root === null ? [] : esign_pdf_dict($objects[$root]['dict']);
	$pages_ref = esign_pdf_ref($catalog['Pages'] ?? null);
	if ($pages_ref === null) throw new RuntimeException('The PDF file could not be read.');
	$pages = esign_pdf_pages($objects, $pages_ref);
	$next = max(array_keys($objects)) + 1;
	[$font_objects, $font_dict] = esign_pdf_fonts($next);
	$next += count($font_objects);
	$out = '';
	foreach ($font_objects as $num => $text) $out .= "$num 0 obj\n$text\nendobj\n";

	foreach ($pages as $i => [$page_num, $inherited]) {
		$page_fields = $by_page[$i + 1] ?? [];
		if (!array_filter($page_fields, fn ($f) => (string) $f['value'] !== '')) continue;
		$dict = esign_pdf_dict($objects[$page_num]['dict']);
		// The page's own entries are in $inherited too (esign_pdf_pages): its MediaBox, else an ancestor's, else Letter.
		$box = esign_pdf_box(esign_pdf_direct($objects, $inherited['MediaBox'] ?? null)) ?? [0, 0, 612, 792];
		$view = esign_pdf_view($objects, $inherited, $box);
		// The original page content becomes a form XObject with its own resources, so the stamps need
		// no change to resource dictionaries we may not be able to read.
		$content = '';
		$contents = $dict['Contents'] ?? '';
		preg_match_all('~(\d+)\s+\d+\s+R~', $contents, $refs);
		foreach ($refs[1] as $ref) {
			$o = $objects[(int) $ref] ?? null;
			if (!$o || $o['stream'] === null) continue;
			$decoded = esign_pdf_decode($o['dict'], $o['stream']);
			if ($decoded === null) throw new RuntimeException('Unsupported content stream filter.');
			$content .= $decoded . "\n";
		}
		$resources = $dict['Resources'] ?? $inherited['Resources'] ?? '<< >>';
		$form = $next++;
		$stamp = $next++;
		$out .= esign_pdf_stream_object($form, sprintf('/Type /XObject /Subtype /Form /BBox [%s] /Resources %s', implode(' ', array_map('esign_num', $box)), $resources), $content);
		[$vx0, $vy0, , $vy1] = $view['box'];
		$ops = "q /EsOrig Do Q\n" . ($view['rotation'] === 0
			? esign_pdf_stamps($page_fields, $by_id, $vx0, $vy0, $vy1 - $vy0)
			// Turned: stamped on the displayed page (origin at its bottom-left corner), mapped to user space by the cm.
			: 'q ' . implode(' ', array_map('esign_num', esign_pdf_display_to_user($view))) . " cm\n" . esign_pdf_stamps($page_fields, $by_id, 0, 0, $view['height']) . "Q\n");
		$out .= esign_pdf_stream_object($stamp, '', $ops);
		$dict['Resources'] = "<< /XObject << /EsOrig $form 0 R >> /Font $font_dict >>";
		$dict['Contents'] = "$stamp 0 R";
		$dict['MediaBox'] = '[' . implode(' ', array_map('esign_num', $box)) . ']';
		$out .= "$page_num 0 obj\n" . esign_pdf_dict_text($dict) . "\nendobj\n";
	}

	$cert_content = $next++;
	$cert_page = $next++;
	$root_pages = esign_pdf_dict($objects[$pages_ref]['dict']);
	// An upright, uncropped Letter page even where the page tree hands its pages a /Rotate or a /CropBox.
	$upright = (isset($root_pages['Rotate']) ? ' /Rotate 0' : '') . (isset($root_pages['CropBox']) ? ' /CropBox [0 0 612 792]' : '');
	$out .= esign_pdf_stream_object($cert_content, '', esign_pdf_certificate($doc, $signers, $events, count($pages)));
	$out .= "$cert_page 0 obj\n<< /Type /Page /Parent $pages_ref 0 R /MediaBox [0 0 612 792]$upright /Resources << /Font $font_dict >> /Contents $cert_content 0 R >>\nendobj\n";
	$root_pages['Kids'] = rtrim(trim($root_pages['Kids'] ?? '[]'), ']') . " $cert_page 0 R]";
	$root_pages['Count'] = (string) (((int) ($root_pages['Count'] ?? count($pages))) + 1);
	$out .= "$pages_ref 0 obj\n" . esign_pdf_dict_text($root_pages) . "\nendobj\n";
	return esign_pdf_append($original, $out, $root, $next);
}

function esign_pdf_dict_text(array $entries): string {
	$parts = [];
	foreach ($entries as $k => $v) $parts[] = "/$k $v";
	return '<< ' . implode(' ', $parts) . ' >>';
}

/** Appends objects as an incremental update: a cross-reference section per object and a trailer. */
function esign_pdf_append(string $original, string $objects_text, int $root, int $size): string {
	$base = rtrim($original, "\r\n") . "\n";
	$offset = strlen($base);
	preg_match_all('~(?m)^(\d+) 0 obj$~', $objects_text, $m, PREG_OFFSET_CAPTURE);
	$xref = "xref\n";
	foreach ($m[1] as [$num, $pos]) $xref .= "$num 1\n" . sprintf('%010d 00000 n', $offset + $pos) . " \n";
	$prev = preg_match_all('~startxref\s+(\d+)~', $original, $p) ? (int) end($p[1]) : null;
	$info = preg_match_all('~/Info\s+(\d+\s+\d+\s+R)~', $original, $i) ? ' /Info ' . end($i[1]) : '';
	$trailer = "trailer\n<< /Size $size /Root $root 0 R$info" . ($prev !== null ? " /Prev $prev" : '') . " >>\n";
	$start = $offset + strlen($objects_text);
	return $base . $objects_text . $xref . $trailer . "startxref\n$start\n%%EOF\n";
}

/** A new PDF: the image fitted on a US Letter page with the stamps, then the certificate. */
function esign_image_pdf(string $bytes, string $kind, array $doc, array $by_page, array $by_id, array $signers, array $events): string {
	if ($kind === 'png') {
		if (!function_exists('imagecreatefromstring')) throw new RuntimeException('PNG originals need PHP GD.');
		$img = imagecreatefromstring($bytes);
		ob_start();
		imagejpeg($img, null, 92);
		$bytes = ob_get_clean();
	}
	$size = getimagesizefromstring($bytes);
	[$iw, $ih] = [$size[0], $size[1]];
	$channels = $size['channels'] ?? 3;
	$scale = min((612 - 72) / $iw, (792 - 72) / $ih);
	$w = $iw * $scale;
	$h = $ih * $scale;
	$fonts = esign_pdf_fonts(3)[0];
	$font_dict = esign_pdf_fonts(3)[1];
	$objs = [];
	$objs[1] = '<< /Type /Catalog /Pages 2 0 R >>';
	$objs[2] = '<< /Type /Pages /Kids [9 0 R 11 0 R] /Count 2 >>';
	foreach ($fonts as $n => $t) $objs[$n] = $t;
	$color = $channels === 4 ? '/DeviceCMYK' : ($channels === 1 ? '/DeviceGray' : '/DeviceRGB');
	$objs[6] = ['dict' => "/Type /XObject /Subtype /Image /Width $iw /Height $ih /ColorSpace $color /BitsPerComponent 8 /Filter /DCTDecode", 'data' => $bytes, 'raw' => true];
	$ops = sprintf("q %s 0 0 %s %s %s cm /EsImg Do Q\n", esign_num($w), esign_num($h), esign_num((612 - $w) / 2), esign_num(792 - 36 - $h));
	$ops .= esign_pdf_stamps($by_page[1] ?? [], $by_id, 0, 0, 792);
	$objs[8] = ['dict' => '', 'data' => $ops];
	$objs[9] = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /EsImg 6 0 R >> /Font $font_dict >> /Contents 8 0 R >>";
	$objs[10] = ['dict' => '', 'data' => esign_pdf_certificate($doc, $signers, $events, 1)];
	$objs[11] = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font $font_dict >> /Contents 10 0 R >>";
	ksort($objs);
	$out = "%PDF-1.7\n%\xE2\xE3\xCF\xD3\n";
	$offsets = [];
	foreach ($objs as $n => $o) {
		$offsets[$n] = strlen($out);
		if (is_string($o)) {
			$out .= "$n 0 obj\n$o\nendobj\n";
		} elseif (!empty($o['raw'])) {
			$out .= "$n 0 obj\n<< {$o['dict']} /Length " . strlen($o['data']) . " >>\nstream\n{$o['data']}\nendstream\nendobj\n";
		} else {
			$out .= esign_pdf_stream_object($n, $o['dict'], $o['data']);
		}
	}
	$size = max(array_keys($objs)) + 1;
	$xref = strlen($out);
	$out .= "xref\n0 $size\n0000000000 65535 f \n";
	for ($n = 1; $n < $size; $n++) $out .= isset($offsets[$n]) ? sprintf('%010d 00000 n', $offsets[$n]) . " \n" : "0000000000 65535 f \n";
	$out .= "trailer\n<< /Size $size /Root 1 0 R >>\nstartxref\n$xref\n%%EOF\n";
	return $out;
}
