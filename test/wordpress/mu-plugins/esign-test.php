<?php
/**
 * Plugin Name: eSign test controls
 * Description: Only on the throwaway test site. The controls the tests need, under /wp-json/esign-test/v1 (no auth, never rate limited, not in the request log): reset, keys, samples, seeding, storage, outbox (wp_mail is captured here), request log, counters, faults, clock, expiry, templates, signer actions and webhooks. The same paths as the Node sandbox's /__sandbox/… controls, so one suite drives both sites.
 */

defined('ABSPATH') || exit;

const ESIGN_TEST_NS = 'esign-test/v1';

function esign_test_table(string $name): string {
	global $wpdb;
	return $wpdb->prefix . 'esign_test_' . $name;
}

function esign_test_install(): void {
	global $wpdb;
	require_once ABSPATH . 'wp-admin/includes/upgrade.php';
	$c = $wpdb->get_charset_collate();
	dbDelta('CREATE TABLE ' . esign_test_table('log') . " (
  id bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  kind varchar(20) NOT NULL,
  document_id bigint(20) unsigned DEFAULT NULL,
  data longtext NOT NULL,
  PRIMARY KEY  (id),
  KEY kind (kind)
) $c;");
	dbDelta('CREATE TABLE ' . esign_test_table('counters') . " (
  name varchar(64) NOT NULL,
  n bigint(20) unsigned NOT NULL DEFAULT 0,
  PRIMARY KEY  (name)
) $c;");
	update_option('esign_test_db_version', '1');
}

add_action('plugins_loaded', function () {
	if (!wp_installing() && get_option('esign_test_db_version') !== '1') esign_test_install();
}, 20);

// ---------------------------------------------------------------- clock

add_filter('esign_now', fn ($t) => $t + (int) get_option('esign_test_clock_offset', 0));

// ---------------------------------------------------------------- mail capture (no sendmail on the test machine)

add_filter('pre_wp_mail', function ($null, $atts) {
	global $wpdb;
	if (get_option('esign_test_db_version') !== '1') return true; // during installation: nowhere to log yet
	$headers = [];
	foreach ((array) $atts['headers'] as $h) {
		[$k, $v] = array_map('trim', explode(':', $h, 2) + [1 => '']);
		$headers[strtolower($k)] = $v;
	}
	$to = is_array($atts['to']) ? $atts['to'][0] : $atts['to'];
	$name = '';
	if (preg_match('~^(.*)<([^>]+)>$~', trim($to), $m)) {
		$name = trim($m[1]);
		$to = $m[2];
	}
	$email = [
		'to' => $to, 'name' => $name, 'kind' => $headers['x-esign-kind'] ?? 'other',
		'document_id' => $headers['x-esign-document'] ?? null, 'signer_id' => $headers['x-esign-signer'] ?? null,
		'subject' => $atts['subject'], 'signing_url' => $headers['x-esign-signing-url'] ?? null, 'sent_at' => function_exists('esign_ts') ? esign_ts() : gmdate('Y-m-d H:i:s'),
	];
	$wpdb->insert(esign_test_table('log'), ['kind' => 'email', 'document_id' => $email['document_id'], 'data' => wp_json_encode($email)]);
	return true;
}, 10, 2);

// ---------------------------------------------------------------- request log, counters, faults

function esign_test_count(string $name): void {
	global $wpdb;
	$wpdb->query($wpdb->prepare('INSERT INTO ' . esign_test_table('counters') . ' (name, n) VALUES (%s, 1) ON DUPLICATE KEY UPDATE n = n + 1', $name));
}

function esign_test_log_update(array $changes): void {
	global $wpdb;
	if (empty($GLOBALS['esign_test_request'])) return;
	$GLOBALS['esign_test_request']['entry'] = array_merge($GLOBALS['esign_test_request']['entry'], $changes);
	$wpdb->update(esign_test_table('log'), ['data' => wp_json_encode($GLOBALS['esign_test_request']['entry'])], ['id' => $GLOBALS['esign_test_request']['id']]);
}

function esign_test_path_matches(string $pattern, string $path): bool {
	if (str_contains($path, $pattern)) return true;
	if (!preg_match('~^/(.+)/([a-z]*)$~', $pattern, $m)) return false;
	return @preg_match('~' . str_replace('~', '\~', $m[1]) . '~' . str_replace('g', '', $m[2]), $path) === 1;
}

/** Consumes one use of the first fault matching this request. */
function esign_test_take_fault(string $method, string $path): ?array {
	$faults = get_option('esign_test_faults', []);
	foreach ($faults as $i => $f) {
		if ($f['method'] && $f['method'] !== $method || !esign_test_path_matches($f['path'], $path)) continue;
		$faults[$i]['remaining']--;
		if ($faults[$i]['remaining'] <= 0) array_splice($faults, $i, 1);
		update_option('esign_test_faults', array_values($faults), false);
		return $f;
	}
	return null;
}

function esign_test_fault_response(array $f) {
	if ($f['raw']) {
		status_header($f['raw']['status']);
		foreach ($f['raw']['headers'] as $k => $v) header("$k: $v");
		echo $f['raw']['body'];
		exit;
	}
	if ($f['status'] === 429) {
		return (new ESign_Error(429, 'rate_limit_exceeded', "Rate limit exceeded. Please wait {$f['retryAfter']} seconds before retrying.", ['retry_after' => $f['retryAfter']], ['Retry-After' => (string) $f['retryAfter']]))->response();
	}
	$code = $f['code'] ?: ($f['status'] >= 500 ? 'internal_error' : 'sandbox_fault');
	return (new ESign_Error($f['status'], $code, $f['message'] ?: 'Internal server error (test site fault injection).'))->response();
}

/** First in the pipeline: log the request, then apply a fault (before rate limits and routing, as on the sandbox). */
add_filter('rest_pre_dispatch', function ($result, $server, WP_REST_Request $request) {
	global $wpdb;
	$route = $request->get_route();
	if (!str_starts_with($route, '/esign/v1')) return $result;
	$path = '/wp-json' . $route;
	$entry = [
		'method' => $request->get_method(), 'path' => $path, 'query' => (object) array_diff_key($request->get_query_params(), ['rest_route' => 1]),
		'url' => isset($_SERVER['REQUEST_URI']) ? wp_unslash($_SERVER['REQUEST_URI']) : $path, 'status' => null,
		'key' => $request->get_header('x_esign_api_key'), 'at' => esign_ts(), 'executed' => false, 'route' => null,
	];
	// serve_request took the method from ?_method= or X-HTTP-Method-Override: the request's own, as on the sandbox.
	$sent = isset($_SERVER['REQUEST_METHOD']) ? strtoupper($_SERVER['REQUEST_METHOD']) : $entry['method'];
	if ($sent !== $entry['method']) $entry['sentAs'] = $sent;
	$wpdb->insert(esign_test_table('log'), ['kind' => 'request', 'data' => wp_json_encode($entry)]);
	$GLOBALS['esign_test_request'] = ['id' => $wpdb->insert_id, 'entry' => $entry];
	$fault = esign_test_take_fault($entry['method'], $path);
	if (!$fault) return $result;
	esign_test_log_update(['fault' => $fault['mode']]);
	$GLOBALS['esign_test_fault'] = $fault;
	if ($fault['mode'] === 'before') {
		if ($fault['delayMs']) usleep($fault['delayMs'] * 1000);
		if (!$fault['raw']) esign_test_log_update(['status' => $fault['status']]);
		return esign_test_fault_response($fault);
	}
	return $result;
}, 1, 3);

add_filter('rest_request_before_callbacks', function ($response, $handler, $request) {
	if (!empty($handler['esign_route'])) esign_test_log_update(['route' => $handler['esign_route']]);
	return $response;
}, 10, 3);

add_action('esign_authenticated', fn ($key) => esign_test_log_update(['keyName' => $key->name]));

add_action('esign_handler_run', function ($name) {
	esign_test_log_update(['executed' => true]);
	esign_test_count($name . 'Executed');
});

add_filter('rest_post_dispatch', function ($response, $server, $request) {
	if (empty($GLOBALS['esign_test_request'])) return $response;
	$fault = $GLOBALS['esign_test_fault'] ?? null;
	if ($fault && $fault['mode'] !== 'before') {
		if ($fault['delayMs']) usleep($fault['delayMs'] * 1000);
		if ($fault['mode'] === 'after') {
			if ($fault['raw']) {
				esign_test_log_update(['status' => $fault['raw']['status']]);
				esign_test_fault_response($fault);
			}
			$response = esign_test_fault_response($fault);
		}
	}
	esign_test_log_update(['status' => $response->get_status()]);
	return $response;
}, 999, 3);

add_action('esign_webhook_delivered', function ($delivery) {
	global $wpdb;
	$wpdb->insert(esign_test_table('log'), ['kind' => 'delivery', 'data' => wp_json_encode($delivery)]);
});

// ---------------------------------------------------------------- controls

function esign_test_log_rows(string $kind, ?string $document_id = null): array {
	global $wpdb;
	$sql = $wpdb->prepare('SELECT id, data FROM ' . esign_test_table('log') . ' WHERE kind = %s', $kind);
	if ($document_id !== null && $document_id !== '') $sql .= $wpdb->prepare(' AND document_id = %d', $document_id);
	return array_map(fn ($r) => ['id' => (int) $r->id] + json_decode($r->data, true), $wpdb->get_results($sql . ' ORDER BY id DESC LIMIT 10000'));
}

function esign_test_samples_dir(): string {
	return WP_CONTENT_DIR . '/esign-samples';
}

function esign_test_sample(string $name): array {
	$path = esign_test_samples_dir() . '/' . basename($name);
	if (!is_file($path)) esign_fail(404, 'not_found', "No sample named $name.");
	$bytes = file_get_contents($path);
	$kind = esign_detect_type($bytes);
	return ['path' => $path, 'bytes' => $bytes, 'kind' => $kind, 'pages' => $kind ? esign_count_pages($bytes, $kind) : 0, 'hash' => hash('sha256', $bytes)];
}

const ESIGN_TEST_USERS = ['admin' => 'admin@example.com', 'user' => 'uma@example.com', 'user2' => 'victor@example.com'];

function esign_test_user_id(string $name): int {
	$user = isset(ESIGN_TEST_USERS[$name]) ? get_user_by('email', ESIGN_TEST_USERS[$name]) : null;
	if (!$user) esign_fail(400, 'invalid_data', 'owner must be admin, user or user2.');
	return (int) $user->ID;
}

/** The seed templates of the sandbox (test/sandbox/templates.js), on the same sample files. */
function esign_test_seed_templates(): void {
	$tf = function (int $signer, string $type, int $page, float $x, float $y, string $name = '', string $mapping = '') {
		[$w, $h] = ESIGN_FIELD_DEFAULTS[$type];
		return ['signer' => $signer, 'field_type' => $type, 'field_name' => $name, 'mapping_name' => $mapping, 'page_number' => $page,
			'position_x' => $x, 'position_y' => $y, 'width' => $w, 'height' => $h, 'is_required' => true, 'font_size' => 14,
			'font_family' => 'DM Sans', 'placeholder' => '', 'options' => []];
	};
	$contract = esign_test_sample('contract.pdf');
	$one = esign_test_sample('one-page.pdf');
	esign_add_template(esign_test_user_id('admin'), 'Rental Agreement', 'Residential rental agreement; tenant details are prefilled from variables.', 'contract.pdf', $contract, [
		$tf(0, 'text', 1, 72, 200, 'Client name', 'client_name'), $tf(0, 'text', 1, 72, 240, 'Property address', 'property_address'),
		$tf(0, 'date', 1, 72, 280, 'Appointment date', 'appointment_date'), $tf(0, 'initials', 1, 440, 700, 'Tenant initials'),
		$tf(0, 'signature', 2, 72, 530, 'Tenant signature'),
	]);
	esign_add_template(esign_test_user_id('admin'), 'Mutual NDA', 'Two-party non-disclosure agreement.', 'contract.pdf', $contract, [
		$tf(0, 'text', 1, 72, 200, 'Company name', 'company_name'), $tf(0, 'date', 1, 72, 240, 'Effective date', 'effective_date'),
		$tf(0, 'signature', 2, 72, 530, 'Disclosing party signature'), $tf(1, 'signature', 2, 320, 530, 'Receiving party signature'),
	]);
	esign_add_template(esign_test_user_id('user'), "Uma's Offer Letter", '', 'one-page.pdf', $one, [
		$tf(0, 'text', 1, 72, 200, 'Candidate name', 'candidate_name'), $tf(0, 'signature', 1, 72, 530, 'Candidate signature'),
	]);
}

function esign_test_reset(): void {
	global $wpdb;
	foreach (['documents', 'signers', 'fields', 'templates', 'audit'] as $t) $wpdb->query('TRUNCATE TABLE ' . esign_table($t));
	foreach (['log', 'counters'] as $t) $wpdb->query('TRUNCATE TABLE ' . esign_test_table($t));
	$wpdb->query("DELETE FROM {$wpdb->options} WHERE option_name LIKE '\\_transient\\_esign\\_rl\\_%' OR option_name LIKE '\\_transient\\_timeout\\_esign\\_rl\\_%'");
	foreach (['esign_deleted_counts', 'esign_test_faults', 'esign_test_clock_offset', 'esign_webhooks'] as $o) delete_option($o);
	foreach (glob(esign_storage_dir() . '/*-*') ?: [] as $f) @unlink($f);
	esign_test_seed_templates();
}

function esign_test_document(int $id) {
	$doc = esign_get_document($id);
	if (!$doc) esign_fail(404, 'not_found', 'Document not found.');
	return $doc;
}

function esign_test_rate_limits_out() {
	$l = esign_rate_limits();
	return $l['enabled'] ? ['perKeyPerHour' => (int) $l['per_key_per_hour'] ?: 1000, 'perIpPerMinute' => (int) $l['per_ip_per_minute']] : false;
}

function esign_test_seed_documents(array $in): array {
	$n = esign_to_int($in['count'] ?? 1);
	if ($n === null || $n < 1 || $n > 5000) esign_fail(400, 'invalid_data', 'count must be an integer from 1 to 5000.');
	$owner = esign_test_user_id($in['owner'] ?? 'admin');
	$status = $in['status'] ?? 'draft';
	if (!in_array($status, ESIGN_STATUSES, true)) esign_fail(400, 'invalid_data', 'status must be one of ' . implode(', ', ESIGN_STATUSES) . '.');
	$prefix = $in['titlePrefix'] ?? 'Seeded document';
	$file = esign_test_sample('one-page.pdf');
	$file['path'] = esign_store_file($file['bytes'], 'one-page.pdf');
	$at = esign_ts();
	$ids = [];
	for ($i = 1; $i <= $n; $i++) {
		$id = esign_create_document($owner, "$prefix $i", 'one-page.pdf', $file, null, $status);
		$sid = esign_create_signer($id, ['name' => "Seed Signer $id", 'email' => "signer$id@example.com", 'signing_order' => 1]);
		$signed = $status === 'completed';
		esign_create_field($id, ['signer_id' => $sid, 'field_type' => 'signature', 'page_number' => 1, 'position_x' => 72, 'position_y' => 600,
			'width' => 200, 'height' => 60, 'is_required' => true, 'value' => $signed ? "Seed Signer $id" : '']);
		esign_audit($id, 'document_created');
		$signer = [];
		if (!in_array($status, ['draft', 'sent'], true)) $signer += ['status' => 'viewed', 'viewed_at' => $at];
		if ($signed) $signer = ['status' => 'signed', 'viewed_at' => $at, 'signed_at' => $at, 'signed_ip' => '127.0.0.1'];
		if ($status === 'declined') $signer = ['status' => 'declined', 'viewed_at' => $at, 'declined_at' => $at, 'decline_reason' => 'Seeded decline.'];
		if ($signer) esign_update('signers', $signer, $sid);
		if ($signed) esign_update('documents', ['completed_at' => $at], $id);
		if ($status === 'expired') esign_update('documents', ['expires_at' => esign_ts(esign_time() - 86400)], $id);
		$ids[] = (string) $id;
	}
	return ['ids' => $ids];
}

function esign_test_normalize_fault(array $in): array {
	$mode = $in['mode'] ?? (!empty($in['delayMs']) ? 'delay' : 'before');
	if (!in_array($mode, ['before', 'after', 'delay'], true)) {
		esign_fail(400, 'invalid_data', 'mode must be one of before, after, delay (the WordPress test site cannot drop connections).');
	}
	if (!esign_is_text($in['path'] ?? null)) esign_fail(400, 'invalid_data', 'path (substring or /regex/) is required.');
	$count = esign_to_int($in['count'] ?? 1);
	if ($count === null || $count < 1) esign_fail(400, 'invalid_data', 'count must be a positive integer.');
	$raw = null;
	if (isset($in['raw']) && is_array($in['raw'])) {
		$body = $in['raw']['body'] ?? '';
		$raw = ['status' => (int) ($in['raw']['status'] ?? 200), 'headers' => (array) ($in['raw']['headers'] ?? []), 'body' => is_string($body) ? $body : wp_json_encode($body)];
	} elseif (isset($in['answer'])) {
		esign_fail(400, 'invalid_data', 'answer presets are a sandbox feature; send raw {status, headers, body} instead.');
	}
	$faults = get_option('esign_test_faults', []);
	$fault = [
		'id' => count($faults) + 1, 'method' => isset($in['method']) ? strtoupper($in['method']) : null, 'path' => $in['path'],
		'count' => $count, 'remaining' => $count, 'status' => (int) ($in['status'] ?? 500) ?: 500, 'delayMs' => (int) ($in['delayMs'] ?? 0),
		'mode' => $mode, 'code' => $in['code'] ?? null, 'message' => $in['message'] ?? null, 'retryAfter' => (int) ($in['retryAfter'] ?? 1) ?: 1, 'raw' => $raw,
	];
	$faults[] = $fault;
	update_option('esign_test_faults', $faults, false);
	return $fault;
}

/** [method, path, handler(input, request)]; handlers return data, or WP_REST_Response. */
function esign_test_controls(): array {
	$full = fn ($doc) => esign_document_out(esign_get_document((int) $doc->id), true);
	$signer_action = fn (string $action) => function ($in, $r) use ($full, $action) {
		[$signer, $doc] = esign_signer_by_token($r['token']);
		if ($action === 'view') esign_view_document($doc, $signer);
		if ($action === 'sign') esign_sign_document($doc, $signer, $in['values'] ?? []);
		if ($action === 'decline') esign_decline_document($doc, $signer, $in['reason'] ?? '');
		return ['document' => $full($doc), 'signer' => esign_signer_out(esign_get_signer((int) $signer->id))];
	};
	$binary = function (string $bytes, string $type, ?string $filename = null) {
		header("Content-Type: $type");
		// ?filename= names the download (any characters: RFC 6266's filename*, with an ASCII fallback), as on the sandbox.
		if ($filename !== null) header('Content-Disposition: attachment; filename="' . preg_replace('/[^\x20-\x7e]|["\'\\\\;=]/', '_', $filename) . "\"; filename*=UTF-8''" . rawurlencode($filename));
		header('Content-Length: ' . strlen($bytes));
		echo $bytes;
		exit;
	};
	return [
		['GET', '/health', fn () => ['ok' => true]],
		['POST', '/reset', function () {
			esign_test_reset();
			return ['ok' => true];
		}],
		['GET', '/keys', fn () => get_option('esign_test_keys', []) + ['webhookSecret' => get_option('esign_webhook_secret')]],
		['GET', '/samples/(?P<name>[\w.-]+)', function ($in, $r) use ($binary) {
			$s = esign_test_sample($r['name']);
			$types = ['pdf' => 'application/pdf', 'png' => 'image/png', 'jpg' => 'image/jpeg'];
			$name = isset($in['filename']) && is_string($in['filename']) && $in['filename'] !== '' ? $in['filename'] : $r['name'];
			$binary($s['bytes'], $types[$s['kind']] ?? 'text/plain; charset=UTF-8', $name);
		}],
		['POST', '/seed/documents', fn ($in) => new WP_REST_Response(esign_test_seed_documents($in), 201)],
		['POST', '/storage', function ($in, $r) {
			$files = $r->get_file_params();
			$file = esign_read_upload($files['file'] ?? $files['document'] ?? null);
			$path = esign_store_file($file['bytes'], $file['filename']);
			touch($path, esign_time());
			return new WP_REST_Response(['file_path' => $path, 'uploaded_at' => esign_ts(), 'filename' => $file['filename'], 'size' => strlen($file['bytes'])], 201);
		}],
		['POST', '/storage/age', function ($in) {
			$path = esign_secure_path((string) ($in['file_path'] ?? ''));
			if (!$path) esign_fail(404, 'not_found', 'No stored file at that path.');
			$minutes = esign_to_number($in['minutes'] ?? null);
			if (is_nan($minutes)) esign_fail(400, 'invalid_data', 'minutes must be a number.');
			touch($path, (int) (esign_time() - $minutes * 60));
			clearstatcache();
			return ['file_path' => $in['file_path'], 'uploaded_at' => esign_ts(filemtime($path))];
		}],
		['GET', '/outbox', fn ($in) => array_reverse(esign_test_log_rows('email', $in['document_id'] ?? null))],
		['GET', '/requests', fn () => array_map(function ($e) {
			unset($e['id']);
			return $e;
		}, array_reverse(esign_test_log_rows('request')))],
		['DELETE', '/requests', function () {
			global $wpdb;
			$wpdb->delete(esign_test_table('log'), ['kind' => 'request']);
			return ['ok' => true];
		}],
		['GET', '/counters', function () {
			global $wpdb;
			$counters = array_fill_keys(array_map(fn ($n) => $n . 'Executed', ['upload', 'create', 'update', 'delete', 'addSigner', 'saveFields', 'send', 'remind', 'expire', 'createFromTemplate']), 0);
			foreach ($wpdb->get_results('SELECT name, n FROM ' . esign_test_table('counters')) as $row) $counters[$row->name] = (int) $row->n;
			return $counters;
		}],
		['GET', '/faults', fn () => get_option('esign_test_faults', [])],
		['POST', '/faults', fn ($in) => new WP_REST_Response(esign_test_normalize_fault($in), 201)],
		['DELETE', '/faults', function () {
			delete_option('esign_test_faults');
			return ['ok' => true];
		}],
		['GET', '/php-limits', fn () => ['phpLimits' => ['upload_max_filesize' => wp_convert_hr_to_bytes(ini_get('upload_max_filesize')), 'post_max_size' => wp_convert_hr_to_bytes(ini_get('post_max_size'))], 'simulated' => false]],
		['GET', '/permalinks', fn () => ['permalinks' => get_option('permalink_structure') ? 'pretty' : 'plain']],
		['POST', '/permalinks', function ($in) {
			global $wp_rewrite;
			if (!in_array($in['structure'] ?? null, ['plain', 'pretty'], true)) esign_fail(400, 'invalid_data', "structure must be 'plain' or 'pretty'.");
			$wp_rewrite->set_permalink_structure($in['structure'] === 'plain' ? '' : '/%postname%/');
			$wp_rewrite->flush_rules(false);
			return ['permalinks' => $in['structure']];
		}],
		['GET', '/rate-limits', fn () => ['rateLimits' => esign_test_rate_limits_out()]],
		['POST', '/rate-limits', function ($in) {
			global $wpdb;
			if (($in['enabled'] ?? true) === false) {
				update_option('esign_rate_limits', ['enabled' => false]);
			} else {
				$pick = fn ($k, $d) => !array_key_exists($k, $in) ? $d : (is_int($in[$k]) && $in[$k] > 0 ? $in[$k] : 0);
				update_option('esign_rate_limits', ['enabled' => true, 'per_key_per_hour' => $pick('perKeyPerHour', 0), 'per_ip_per_minute' => $pick('perIpPerMinute', 100)]);
			}
			$wpdb->query("DELETE FROM {$wpdb->options} WHERE option_name LIKE '\\_transient\\_esign\\_rl\\_%' OR option_name LIKE '\\_transient\\_timeout\\_esign\\_rl\\_%'");
			$limits = esign_rate_limits();
			return ['rateLimits' => $limits['enabled'] ? ['perKeyPerHour' => (int) $limits['per_key_per_hour'] ?: 1000, 'perIpPerMinute' => (int) $limits['per_ip_per_minute']] : false];
		}],
		['GET', '/clock', fn () => ['offsetSeconds' => (int) get_option('esign_test_clock_offset', 0), 'now' => esign_ts()]],
		['POST', '/clock', function ($in) {
			$offset = esign_to_number($in['offsetSeconds'] ?? null);
			$advance = esign_to_number($in['advanceSeconds'] ?? null);
			if (!is_nan($offset)) update_option('esign_test_clock_offset', (int) $offset);
			elseif (!is_nan($advance)) update_option('esign_test_clock_offset', (int) get_option('esign_test_clock_offset', 0) + (int) $advance);
			else esign_fail(400, 'invalid_data', 'Send offsetSeconds (absolute) or advanceSeconds (relative).');
			return ['offsetSeconds' => (int) get_option('esign_test_clock_offset', 0), 'now' => esign_ts()];
		}],
		['POST', '/documents/(?P<id>\d+)/expiry', function ($in, $r) use ($full) {
			$doc = esign_test_document((int) $r['id']);
			if (array_key_exists('inSeconds', $in)) {
				$s = esign_to_number($in['inSeconds']);
				if (is_nan($s)) esign_fail(400, 'invalid_data', 'inSeconds must be a number.');
				$at = esign_ts((int) (esign_time() + $s));
			} elseif (array_key_exists('expires_at', $in) && ($in['expires_at'] === null || is_string($in['expires_at']) && preg_match('~^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$~', $in['expires_at']))) {
				$at = $in['expires_at'];
			} else {
				esign_fail(400, 'invalid_data', "Send expires_at ('YYYY-MM-DD HH:MM:SS' or null) or inSeconds.");
			}
			esign_touch_document($doc, ['expires_at' => $at]);
			return $full($doc);
		}],
		['GET', '/documents/(?P<id>\d+)/file', function ($in, $r) use ($binary) {
			$doc = esign_test_document((int) $r['id']);
			if (!$doc->file_path) esign_fail(404, 'no_file', 'This document has no file.');
			$done = $doc->status === 'completed';
			$binary($done ? esign_signed_pdf($doc) : file_get_contents($doc->file_path), $done ? 'application/pdf' : ESIGN_FILE_KINDS[$doc->file_kind]['mime']);
		}],
		['POST', '/templates', function ($in) {
			$doc = esign_test_document((int) ($in['document_id'] ?? 0));
			if (!$doc->file_path) esign_fail(400, 'no_file', 'The document has no file.');
			if (!esign_is_text($in['name'] ?? null)) esign_fail(400, 'invalid_data', 'name is required.');
			$index = [];
			foreach (esign_document_signers((int) $doc->id) as $i => $s) $index[(int) $s->id] = $i;
			$fields = array_map(fn ($f) => [
				'signer' => $index[(int) $f->signer_id] ?? 0, 'field_type' => $f->field_type, 'field_name' => $f->field_name, 'mapping_name' => $f->mapping_name,
				'page_number' => (int) $f->page_number, 'position_x' => (float) $f->position_x, 'position_y' => (float) $f->position_y,
				'width' => (float) $f->width, 'height' => (float) $f->height, 'is_required' => (bool) $f->is_required, 'font_size' => (int) $f->font_size,
				'font_family' => $f->font_family, 'placeholder' => $f->placeholder, 'options' => json_decode($f->options ?: '[]', true) ?: [],
			], esign_document_fields((int) $doc->id));
			$owner = isset($in['owner']) ? esign_test_user_id($in['owner']) : (int) $doc->owner_id;
			$file = ['path' => $doc->file_path, 'kind' => $doc->file_kind, 'pages' => (int) $doc->total_pages, 'hash' => $doc->file_hash];
			$id = esign_add_template($owner, trim($in['name']), is_string($in['description'] ?? null) ? $in['description'] : '', $doc->original_filename, $file, $fields);
			return new WP_REST_Response(esign_template_out(esign_template_row($id)), 201);
		}],
		['GET', '/signers', function ($in) {
			global $wpdb;
			$sql = 'SELECT * FROM ' . esign_table('signers');
			if (!empty($in['document_id'])) $sql .= $wpdb->prepare(' WHERE document_id = %d', $in['document_id']);
			return array_map(fn ($s) => esign_signer_out($s) + ['token' => $s->token, 'signing_url' => esign_signing_url($s)], $wpdb->get_results($sql . ' ORDER BY id'));
		}],
		['POST', '/sign/(?P<token>[0-9a-zA-Z]+)/view', $signer_action('view')],
		['POST', '/sign/(?P<token>[0-9a-zA-Z]+)/sign', $signer_action('sign')],
		['POST', '/sign/(?P<token>[0-9a-zA-Z]+)/decline', $signer_action('decline')],
		['GET', '/webhooks', fn () => ['webhooks' => array_values((array) get_option('esign_webhooks', [])), 'deliveries' => array_reverse(esign_test_log_rows('delivery'))]],
		['POST', '/webhooks', function ($in) {
			$url = $in['url'] ?? null;
			if (!esign_is_text($url) || !preg_match('~^https?://~', $url)) esign_fail(400, 'invalid_data', 'url must be an http(s) URL.');
			$events = $in['events'] ?? null;
			if ($events !== null && !(is_array($events) && !array_diff($events, ESIGN_EVENTS))) esign_fail(400, 'invalid_data', 'events must be an array of: ' . implode(', ', ESIGN_EVENTS) . '.');
			$list = !empty($in['replace']) ? [] : (array) get_option('esign_webhooks', []);
			$receiver = ['id' => count($list) + 1, 'url' => $url, 'events' => $events ?: null];
			$list[] = $receiver;
			update_option('esign_webhooks', $list);
			return new WP_REST_Response(['receiver' => $receiver, 'webhooks' => $list], 201);
		}],
		['DELETE', '/webhooks', function () {
			global $wpdb;
			delete_option('esign_webhooks');
			$wpdb->delete(esign_test_table('log'), ['kind' => 'delivery']);
			return ['ok' => true];
		}],
		['POST', '/webhooks/test', function ($in) {
			if (!esign_is_text($in['event'] ?? null)) esign_fail(400, 'invalid_data', 'event is required.');
			$timeout = isset($in['timeoutMs']) ? max(1, (int) ceil(esign_to_int($in['timeoutMs']) / 1000)) : 5;
			$data = is_array($in['data'] ?? null) ? $in['data'] : [];
			$urls = esign_is_text($in['url'] ?? null) ? [$in['url']] : array_map(fn ($w) => $w['url'], (array) get_option('esign_webhooks', []));
			if (!$urls) esign_fail(400, 'invalid_data', 'No url given and no receiver registered.');
			$deliveries = array_map(fn ($u) => esign_deliver($u, $in['event'], $data, $timeout), $urls);
			return esign_is_text($in['url'] ?? null) ? $deliveries[0] : ['deliveries' => $deliveries];
		}],
		['POST', '/webhooks/secret', function ($in) {
			if (!esign_is_text($in['secret'] ?? null)) esign_fail(400, 'invalid_data', 'secret must be a non-empty string.');
			update_option('esign_webhook_secret', $in['secret']);
			return ['webhookSecret' => $in['secret']];
		}],
	];
}

add_action('rest_api_init', function () {
	if (!function_exists('esign_register_routes')) return; // the eSign plugin is not active
	$by_route = [];
	foreach (esign_test_controls() as [$method, $route, $fn]) {
		$by_route[$route][] = [
			'methods' => $method,
			'permission_callback' => '__return_true',
			'callback' => function (WP_REST_Request $r) use ($fn) {
				try {
					$input = array_merge($r->get_query_params(), $r->get_body_params(), (array) ($r->get_json_params() ?? []));
					return $fn($input, $r);
				} catch (ESign_Error $e) {
					return $e->response();
				}
			},
		];
	}
	foreach ($by_route as $route => $endpoints) register_rest_route(ESIGN_TEST_NS, $route, $endpoints);
});
