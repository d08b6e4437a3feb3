<?php
/**
 * The REST API under /wp-json/esign/v1: routes (register_rest_route with permission_callback),
 * key/secret authentication, rate limits (transients) and the handlers.
 */

defined('ABSPATH') || exit;

/** [method, route, name, handler, write]. */
function esign_routes(): array {
	return [
		['GET', '/documents', 'listDocuments', 'esign_api_list_documents'],
		['POST', '/documents/upload', 'upload', 'esign_api_upload'],
		['POST', '/documents', 'create', 'esign_api_create'],
		['GET', '/documents/(?P<id>\d+)', 'getDocument', 'esign_api_get_document'],
		['PUT', '/documents/(?P<id>\d+)', 'update', 'esign_api_update'],
		['DELETE', '/documents/(?P<id>\d+)', 'delete', 'esign_api_delete'],
		['GET', '/documents/(?P<id>\d+)/signers', 'listSigners', 'esign_api_list_signers'],
		['POST', '/documents/(?P<id>\d+)/signers', 'addSigner', 'esign_api_add_signer'],
		['GET', '/documents/(?P<id>\d+)/fields', 'listFields', 'esign_api_list_fields'],
		['POST', '/documents/(?P<id>\d+)/fields', 'saveFields', 'esign_api_save_fields'],
		['POST', '/documents/(?P<id>\d+)/send', 'send', 'esign_api_send'],
		['POST', '/documents/(?P<id>\d+)/remind', 'remind', 'esign_api_remind'],
		['POST', '/documents/(?P<id>\d+)/expire', 'expire', 'esign_api_expire'],
		['GET', '/documents/(?P<id>\d+)/file', 'getFile', 'esign_api_file'],
		['GET', '/documents/(?P<id>\d+)/audit', 'getAudit', 'esign_api_audit'],
		['GET', '/templates', 'listTemplates', 'esign_api_list_templates'],
		['GET', '/templates/(?P<id>\d+)', 'getTemplate', 'esign_api_get_template'],
		['POST', '/templates/(?P<id>\d+)/documents', 'createFromTemplate', 'esign_api_create_from_template'],
		['GET', '/stats', 'stats', 'esign_api_stats'],
	];
}

function esign_register_routes(): void {
	$by_route = [];
	foreach (esign_routes() as [$method, $route, $name, $fn]) {
		$by_route[$route][] = [
			'methods' => $method,
			'callback' => esign_route_callback($name, $fn),
			'permission_callback' => 'esign_permission',
			'esign_route' => $name,
		];
	}
	foreach ($by_route as $route => $endpoints) register_rest_route('esign/v1', $route, $endpoints);
}

/** Runs a handler with the authenticated caller; an ESign_Error becomes the REST error answer. */
function esign_route_callback(string $name, string $fn): callable {
	return function (WP_REST_Request $request) use ($name, $fn) {
		do_action('esign_handler_run', $name, $request);
		try {
			return $fn($request, $GLOBALS['esign_auth']);
		} catch (ESign_Error $e) {
			return $e->response();
		}
	};
}

function esign_hash_secret(string $secret): string {
	return hash_hmac('sha256', $secret, wp_salt('auth'));
}

/** Creates an API key; returns [key, secret] (the secret is shown once and stored hashed). */
function esign_create_key(int $user_id, string $name, string $permission = 'full', ?string $key = null, ?string $secret = null, string $description = ''): array {
	global $wpdb;
	$key = $key ?? 'esign_' . bin2hex(random_bytes(16));
	$secret = $secret ?? bin2hex(random_bytes(24));
	$wpdb->replace(esign_table('keys'), [
		'user_id' => $user_id, 'name' => $name, 'description' => $description, 'api_key' => $key,
		'secret_hash' => esign_hash_secret($secret), 'permission' => $permission, 'rate_limit' => 1000, 'created_at' => esign_ts(),
	]);
	return [$key, $secret];
}

function esign_find_key(?string $key) {
	global $wpdb;
	if (!$key || !str_starts_with($key, 'esign_')) return null;
	return $wpdb->get_row($wpdb->prepare('SELECT * FROM ' . esign_table('keys') . ' WHERE api_key = %s', $key));
}

/** permission_callback: 401 for a missing/wrong key or secret, 403 for writes with a Read Only key. */
function esign_permission(WP_REST_Request $request) {
	$row = esign_find_key($request->get_header('x_esign_api_key'));
	$secret = (string) $request->get_header('x_esign_api_secret');
	if (!$row || $secret === '' || !hash_equals($row->secret_hash, esign_hash_secret($secret))) {
		return new WP_Error('rest_forbidden', 'Invalid API key or secret.', ['status' => 401]);
	}
	if ($row->permission !== 'full' && $request->get_method() !== 'GET') {
		return new WP_Error('rest_forbidden', 'This API key has read-only permissions. Write operations need a Full Access key.', ['status' => 403]);
	}
	$GLOBALS['esign_auth'] = ['user_id' => (int) $row->user_id, 'is_admin' => esign_is_admin((int) $row->user_id), 'key' => $row];
	do_action('esign_authenticated', $row, $request);
	return true;
}

// ---------------------------------------------------------------- rate limits

/** ['per_key_per_hour' => n|0 (0 = each key's own limit), 'per_ip_per_minute' => n|0 (off), 'enabled' => bool]. */
function esign_rate_limits(): array {
	return wp_parse_args(get_option('esign_rate_limits', []), ['enabled' => true, 'per_key_per_hour' => 0, 'per_ip_per_minute' => 100]);
}

/**
 * Fixed windows on the site clock, counted in transients, checked before routing and authentication
 * (rest_pre_dispatch), so a client over the limit gets 429 rather than 401/404. Refused requests are
 * not counted. The per-key limit applies to known keys and is the key's own (1,000 by default).
 */
function esign_check_rate_limit($result, $server, WP_REST_Request $request) {
	if ($result !== null || !str_starts_with($request->get_route(), '/esign/v1')) return $result;
	$limits = esign_rate_limits();
	if (!$limits['enabled']) return $result;
	$t = esign_time();
	$checks = [];
	if ($limits['per_ip_per_minute'] > 0) $checks[] = ['id' => 'ip_' . md5(esign_client_ip()), 'limit' => (int) $limits['per_ip_per_minute'], 'span' => 60];
	$row = esign_find_key($request->get_header('x_esign_api_key'));
	if ($row) {
		$limit = $limits['per_key_per_hour'] > 0 ? (int) $limits['per_key_per_hour'] : (int) $row->rate_limit;
		if ($limit > 0) $checks[] = ['id' => 'key_' . $row->id, 'limit' => $limit, 'span' => 3600];
	}
	foreach ($checks as &$c) {
		$start = intdiv($t, $c['span']) * $c['span'];
		$c['name'] = "esign_rl_{$c['id']}_$start";
		$c['count'] = (int) get_transient($c['name']);
		if ($c['count'] >= $c['limit']) {
			$retry = max(1, $start + $c['span'] - $t);
			return (new ESign_Error(429, 'rate_limit_exceeded', "Rate limit exceeded. Please wait $retry seconds before retrying.", ['retry_after' => $retry], ['Retry-After' => (string) $retry]))->response();
		}
	}
	unset($c);
	foreach ($checks as $c) set_transient($c['name'], $c['count'] + 1, $c['span'] + 60);
	return $result;
}

// ---------------------------------------------------------------- input helpers

/** JSON body, form fields and query, like the sandbox: JSON wins over form, form over query. */
function esign_input(WP_REST_Request $r): array {
	return array_merge($r->get_query_params(), $r->get_body_params(), (array) ($r->get_json_params() ?? []));
}

function esign_is_text($v): bool {
	return is_string($v) && trim($v) !== '';
}

function esign_to_number($v): float {
	if (is_int($v) || is_float($v)) return (float) $v;
	if (is_string($v) && preg_match('~^\s*-?\d+(\.\d+)?\s*$~', $v)) return (float) $v;
	return NAN;
}

function esign_to_int($v): ?int {
	$n = esign_to_number($v);
	return is_nan($n) || floor($n) != $n ? null : (int) $n;
}

function esign_to_bool($v): ?bool {
	if ($v === true || $v === 1 || $v === '1' || $v === 'true') return true;
	if ($v === false || $v === 0 || $v === '0' || $v === 'false') return false;
	return null;
}

function esign_present($v): bool {
	return $v !== null && $v !== '';
}

function esign_int_param(array $input, string $name, int $fallback, int $max): int {
	if (!isset($input[$name]) || $input[$name] === '') return $fallback;
	$n = esign_to_int($input[$name]);
	if ($n === null || $n < 1 || $n > $max) {
		esign_invalid_param($name, $max === PHP_INT_MAX ? "$name must be an integer of at least 1." : "$name must be between 1 (inclusive) and $max (inclusive).");
	}
	return $n;
}

const ESIGN_EMAIL_RE = '~^[^\s@]+@[^\s@]+\.[^\s@]+$~';

// ---------------------------------------------------------------- documents

function esign_api_list_documents(WP_REST_Request $r, array $auth) {
	global $wpdb;
	$input = esign_input($r);
	$page = esign_int_param($input, 'page', 1, PHP_INT_MAX);
	$per_page = esign_int_param($input, 'per_page', 20, 100);
	$status = $input['status'] ?? '';
	if ($status !== '' && !in_array($status, ESIGN_STATUSES, true)) esign_invalid_param('status', 'status is not one of ' . implode(', ', ESIGN_STATUSES) . '.');
	$where = ['1=1'];
	$args = [];
	if (!$auth['is_admin']) { $where[] = 'owner_id = %d'; $args[] = $auth['user_id']; }
	if ($status !== '') { $where[] = 'status = %s'; $args[] = $status; }
	$search = is_string($input['search'] ?? null) ? $input['search'] : '';
	if ($search !== '') { $where[] = 'LOWER(title) LIKE %s'; $args[] = '%' . $wpdb->esc_like(strtolower($search)) . '%'; }
	$sql_where = implode(' AND ', $where);
	$table = esign_table('documents');
	$total = (int) $wpdb->get_var($args ? $wpdb->prepare("SELECT COUNT(*) FROM $table WHERE $sql_where", ...$args) : "SELECT COUNT(*) FROM $table WHERE $sql_where");
	$rows = $wpdb->get_results($wpdb->prepare("SELECT * FROM $table WHERE $sql_where ORDER BY id DESC LIMIT %d OFFSET %d", ...array_merge($args, [$per_page, ($page - 1) * $per_page])));
	$res = new WP_REST_Response(array_map('esign_document_out', $rows), 200);
	$res->header('X-ESIGN-Total', (string) $total);
	$res->header('X-ESIGN-TotalPages', (string) (int) ceil($total / $per_page));
	return $res;
}

function esign_api_upload(WP_REST_Request $r, array $auth) {
	$files = $r->get_file_params();
	$file = esign_read_upload($files['file'] ?? $files['document'] ?? null);
	$params = $r->get_body_params();
	$title = esign_is_text($params['title'] ?? null) ? trim($params['title']) : (esign_stem($file['filename']) ?: $file['filename']);
	$id = esign_create_document($auth['user_id'], $title, $file['filename'], $file);
	esign_audit($id, 'document_created');
	return new WP_REST_Response(esign_document_out(esign_get_document($id)), 201);
}

function esign_api_create(WP_REST_Request $r, array $auth) {
	$input = esign_input($r);
	if (!esign_is_text($input['title'] ?? null)) esign_fail(400, 'missing_title', 'A title is required.');
	$file = null;
	$filename = '';
	if (esign_is_text($input['file_path'] ?? null)) {
		$path = esign_secure_path($input['file_path']);
		if (!$path) esign_fail(400, 'invalid_file_path', 'The file path is not a file in the secure storage.');
		if (esign_time() - filemtime($path) > 15 * 60) esign_fail(400, 'file_expired', 'The file was uploaded more than 15 minutes ago. Upload it again.');
		$file = esign_check_file(file_get_contents($path));
		$filename = preg_replace('~^[0-9a-f]{16}-~', '', wp_basename($path));
	}
	$original = esign_is_text($input['original_filename'] ?? null) ? $input['original_filename'] : $filename;
	$id = esign_create_document($auth['user_id'], trim($input['title']), $original, $file);
	esign_audit($id, 'document_created');
	return new WP_REST_Response(esign_document_out(esign_get_document($id)), 201);
}

function esign_api_get_document(WP_REST_Request $r, array $auth) {
	return esign_document_out(esign_load_document($auth, $r['id']), true);
}

/** PUT: title, and status only draft ↔ sent (sent → draft only while nobody has viewed). */
function esign_api_update(WP_REST_Request $r, array $auth) {
	$doc = esign_load_document($auth, $r['id']);
	$input = (array) ($r->get_json_params() ?? $r->get_body_params());
	$title = $input['title'] ?? null;
	$status = $input['status'] ?? null;
	if (!array_key_exists('title', $input) && !array_key_exists('status', $input)) esign_fail(400, 'invalid_data', 'Nothing to update: send title and/or status.');
	if (array_key_exists('title', $input) && !esign_is_text($title)) esign_fail(400, 'invalid_data', 'title must be a non-empty string.');
	$new_status = $doc->status;
	$rule = 'Status can only change from draft to sent, or from sent back to draft before any signer has viewed the document.';
	if ($status !== null && $status !== $doc->status) {
		if ($doc->status === 'draft' && $status === 'sent') esign_assert_sendable($doc);
		elseif ($doc->status === 'sent' && $status === 'draft') {
			foreach (esign_document_signers((int) $doc->id) as $s) if ($s->status !== 'pending') esign_fail(400, 'invalid_status', $rule);
		} else {
			esign_fail(400, 'invalid_status', sprintf('Cannot change status from %s to %s. %s', $doc->status, is_scalar($status) ? $status : 'that value', $rule));
		}
		$new_status = $status;
	} elseif ($status !== null && !in_array($status, ['draft', 'sent'], true)) {
		esign_fail(400, 'invalid_status', "Status $status cannot be set through the API.");
	}
	$values = ['status' => $new_status];
	if ($title !== null) $values['title'] = trim($title);
	esign_touch_document($doc, $values);
	esign_audit((int) $doc->id, 'document_updated');
	return esign_document_out(esign_get_document((int) $doc->id));
}

function esign_api_delete(WP_REST_Request $r, array $auth) {
	esign_delete_document(esign_load_document($auth, $r['id']));
	return ['deleted' => true];
}

// ---------------------------------------------------------------- signers and fields

function esign_api_list_signers(WP_REST_Request $r, array $auth) {
	return array_map('esign_signer_out', esign_document_signers((int) esign_load_document($auth, $r['id'])->id));
}

function esign_api_add_signer(WP_REST_Request $r, array $auth) {
	$doc = esign_load_document($auth, $r['id']);
	$input = esign_input($r);
	if ($doc->status !== 'draft') esign_fail(400, 'invalid_state', "Signers can only be added to a draft; this document is {$doc->status}.");
	$name = $input['name'] ?? null;
	$email = $input['email'] ?? null;
	$role = $input['role'] ?? 'signer';
	if (!esign_is_text($name)) esign_fail(400, 'invalid_data', 'name is required.');
	if (!esign_is_text($email) || !preg_match(ESIGN_EMAIL_RE, trim($email))) esign_fail(400, 'invalid_data', 'A valid email is required.');
	if ($role !== 'signer') esign_fail(400, 'invalid_role', 'role must be "signer".');
	$existing = esign_document_signers((int) $doc->id);
	$order = 1;
	foreach ($existing as $s) $order = max($order, (int) $s->signing_order + 1);
	if (esign_present($input['signing_order'] ?? null)) {
		$order = esign_to_int($input['signing_order']);
		if ($order === null || $order < 1) esign_fail(400, 'invalid_data', 'signing_order must be an integer of at least 1.');
	}
	foreach ($existing as $s) {
		if (strtolower($s->email) === strtolower(trim($email))) esign_fail(400, 'duplicate_signer', trim($email) . ' is already a signer of this document.');
	}
	$id = esign_create_signer((int) $doc->id, ['name' => trim($name), 'email' => trim($email), 'role' => 'signer', 'signing_order' => $order]);
	esign_touch_document($doc);
	$signer = esign_get_signer($id);
	esign_audit((int) $doc->id, 'signer_added', $signer);
	return new WP_REST_Response(esign_signer_out($signer), 201);
}

function esign_get_signer(int $id) {
	global $wpdb;
	return $wpdb->get_row($wpdb->prepare('SELECT * FROM ' . esign_table('signers') . ' WHERE id = %d', $id));
}

function esign_api_list_fields(WP_REST_Request $r, array $auth) {
	return array_map('esign_field_out', esign_document_fields((int) esign_load_document($auth, $r['id'])->id));
}

/** One submitted field → [normalised field or null, reasons]. */
function esign_check_field($raw, array $signer_ids, int $total_pages): array {
	if (!is_array($raw) || array_is_list($raw) && $raw !== []) return [null, ['must be an object']];
	$reasons = [];
	foreach (['signer_id', 'field_type', 'page_number', 'position_x', 'position_y'] as $p) if (!esign_present($raw[$p] ?? null)) $reasons[] = "$p is required";
	$type = $raw['field_type'] ?? null;
	if (esign_present($type) && !(is_string($type) && isset(ESIGN_FIELD_DEFAULTS[$type]))) {
		$reasons[] = sprintf('field_type "%s" is not one of %s', is_scalar($type) ? $type : json_encode($type), implode(', ', array_keys(ESIGN_FIELD_DEFAULTS)));
	}
	$signer_id = esign_to_int($raw['signer_id'] ?? null);
	if (esign_present($raw['signer_id'] ?? null)) {
		if ($signer_id === null) $reasons[] = 'signer_id must be an integer';
		elseif (!in_array($signer_id, $signer_ids, true)) $reasons[] = "signer_id {$raw['signer_id']} is not a signer of this document";
	}
	$page = esign_to_int($raw['page_number'] ?? null);
	if (esign_present($raw['page_number'] ?? null) && !($page !== null && $page >= 1 && $page <= $total_pages)) {
		$reasons[] = $total_pages > 0 ? "page_number must be an integer from 1 to $total_pages" : 'page_number is invalid: the document has no pages';
	}
	foreach (['position_x', 'position_y'] as $p) {
		if (!esign_present($raw[$p] ?? null)) continue;
		$n = esign_to_number($raw[$p]);
		if (is_nan($n)) $reasons[] = "$p must be a number";
		elseif ($n < 0) $reasons[] = "$p must not be negative";
	}
	foreach (['width', 'height'] as $p) {
		if (!isset($raw[$p])) continue;
		if (!(esign_to_number($raw[$p]) > 0)) $reasons[] = "$p must be greater than 0";
	}
	$required = array_key_exists('is_required', $raw) ? esign_to_bool($raw['is_required']) : true;
	if ($required === null) $reasons[] = 'is_required must be a boolean';
	$font_size = array_key_exists('font_size', $raw) ? esign_to_int($raw['font_size']) : 14;
	if (!($font_size > 0)) $reasons[] = 'font_size must be a positive integer';
	foreach (['placeholder', 'font_family', 'field_name', 'mapping_name'] as $p) {
		if (isset($raw[$p]) && !is_string($raw[$p])) $reasons[] = "$p must be a string";
	}
	$options = $raw['options'] ?? null;
	$options_ok = $options === null || is_array($options) && array_is_list($options) && count(array_filter($options, 'is_string')) === count($options);
	if (!$options_ok) $reasons[] = 'options must be an array of strings';
	elseif ($type === 'dropdown' && empty($options)) $reasons[] = 'dropdown fields need at least one entry in options';
	if ($reasons) return [null, $reasons];
	[$dw, $dh] = ESIGN_FIELD_DEFAULTS[$type];
	return [[
		'signer_id' => $signer_id, 'field_type' => $type, 'field_name' => $raw['field_name'] ?? '', 'mapping_name' => $raw['mapping_name'] ?? '',
		'page_number' => $page, 'position_x' => esign_to_number($raw['position_x']), 'position_y' => esign_to_number($raw['position_y']),
		'width' => isset($raw['width']) ? esign_to_number($raw['width']) : $dw, 'height' => isset($raw['height']) ? esign_to_number($raw['height']) : $dh,
		'is_required' => $required, 'font_size' => $font_size, 'font_family' => ($raw['font_family'] ?? '') ?: 'DM Sans',
		'placeholder' => $raw['placeholder'] ?? '', 'options' => is_array($options) ? $options : [],
	], []];
}

/** Replaces ALL fields (an empty array clears them); all errors of all fields, or nothing saved. */
function esign_api_save_fields(WP_REST_Request $r, array $auth) {
	global $wpdb;
	$doc = esign_load_document($auth, $r['id']);
	if ($doc->status !== 'draft') esign_fail(400, 'invalid_state', "Fields can only be changed on a draft; this document is {$doc->status}.");
	$submitted = esign_input($r)['fields'] ?? null;
	if (!is_array($submitted) || !array_is_list($submitted)) esign_fail(400, 'invalid_data', 'fields must be an array of field objects.');
	$signer_ids = array_map(fn ($s) => (int) $s->id, esign_document_signers((int) $doc->id));
	$fields = [];
	$errors = [];
	foreach ($submitted as $i => $raw) {
		[$field, $reasons] = esign_check_field($raw, $signer_ids, (int) $doc->total_pages);
		if ($field) $fields[] = $field;
		foreach ($reasons as $reason) $errors[] = sprintf('Field %d: %s', $i + 1, $reason);
	}
	if ($errors) esign_fail(400, 'validation_failed', 'One or more fields failed validation.', ['errors' => $errors]);
	$wpdb->delete(esign_table('fields'), ['document_id' => $doc->id]);
	foreach ($fields as $f) esign_create_field((int) $doc->id, $f);
	esign_touch_document($doc);
	esign_audit((int) $doc->id, 'fields_updated');
	return array_map('esign_field_out', esign_document_fields((int) $doc->id));
}

// ---------------------------------------------------------------- workflow

function esign_api_send(WP_REST_Request $r, array $auth) {
	$signers = esign_send_document(esign_load_document($auth, $r['id']));
	return ['sent' => true, 'message' => sprintf('Document sent to %d signer(s).', count($signers))];
}

function esign_api_remind(WP_REST_Request $r, array $auth) {
	$doc = esign_load_document($auth, $r['id']);
	if (!in_array($doc->status, ['sent', 'viewed'], true)) esign_fail(400, 'invalid_state', "Only sent or viewed documents can be reminded; this document is {$doc->status}.");
	$signers = esign_document_signers((int) $doc->id);
	$raw = esign_input($r)['signer_id'] ?? null;
	$explicit = esign_present($raw);
	$targets = $signers;
	if ($explicit) {
		$target = null;
		foreach ($signers as $s) if ((int) $s->id === esign_to_int($raw)) $target = $s;
		if (!$target) esign_fail(400, 'invalid_signer', sprintf('Signer %s is not a signer of this document.', is_scalar($raw) ? $raw : '?'));
		$targets = [$target];
	}
	$eligible = fn ($s) => in_array($s->status, ['pending', 'viewed'], true);
	if (!$explicit && !array_filter($targets, $eligible)) esign_fail(400, 'no_recipients', 'No signer is waiting to sign this document.');
	$reminded = [];
	$failed = [];
	foreach ($targets as $s) {
		if ($eligible($s)) {
			esign_mail($doc, $s, 'reminder');
			esign_audit((int) $doc->id, 'reminder_sent', $s);
			$reminded[] = (string) $s->id;
		} elseif ($explicit) {
			$failed[] = ['signer_id' => (string) $s->id, 'error' => "Signer has already {$s->status}."];
		}
	}
	return ['reminded' => $reminded, 'failed' => $failed, 'message' => sprintf('Reminder sent to %d signer(s).', count($reminded))];
}

function esign_api_expire(WP_REST_Request $r, array $auth) {
	$doc = esign_expire_document(esign_load_document($auth, $r['id']));
	return ['expired' => true, 'document' => ['id' => (string) $doc->id, 'status' => $doc->status]];
}

/** The original file; once completed, the signed PDF (`<stem>-signed.pdf`). */
function esign_api_file(WP_REST_Request $r, array $auth) {
	$doc = esign_load_document($auth, $r['id']);
	if (!$doc->file_path || !is_file($doc->file_path)) esign_fail(404, 'no_file', 'This document has no file.');
	$stem = esign_stem($doc->original_filename) ?: "document-{$doc->id}";
	if ($doc->status === 'completed') {
		return ['content' => base64_encode(esign_signed_pdf($doc)), 'filename' => "$stem-signed.pdf", 'type' => 'application/pdf', 'encoding' => 'base64'];
	}
	$kind = ESIGN_FILE_KINDS[$doc->file_kind];
	return [
		'content' => base64_encode(file_get_contents($doc->file_path)),
		'filename' => $doc->original_filename ?: "$stem.{$kind['ext']}",
		'type' => $kind['mime'],
		'encoding' => 'base64',
	];
}

function esign_api_audit(WP_REST_Request $r, array $auth) {
	$doc = esign_load_document($auth, $r['id']);
	return ['document' => ['id' => (string) $doc->id, 'title' => $doc->title, 'file_hash' => $doc->file_hash], 'events' => esign_audit_events((int) $doc->id)];
}

/** Counts over the caller's documents (all documents for administrators), read live. */
function esign_api_stats(WP_REST_Request $r, array $auth) {
	global $wpdb;
	$table = esign_table('documents');
	$rows = $auth['is_admin']
		? $wpdb->get_results("SELECT status, COUNT(*) AS n FROM $table GROUP BY status")
		: $wpdb->get_results($wpdb->prepare("SELECT status, COUNT(*) AS n FROM $table WHERE owner_id = %d GROUP BY status", $auth['user_id']));
	$counts = ['total' => 0] + array_fill_keys(ESIGN_STATUSES, 0) + ['deleted' => 0];
	foreach ($rows as $row) {
		$counts['total'] += (int) $row->n;
		if (isset($counts[$row->status])) $counts[$row->status] += (int) $row->n;
	}
	foreach (get_option('esign_deleted_counts', []) as $owner => $n) {
		if ($auth['is_admin'] || (int) $owner === $auth['user_id']) $counts['deleted'] += (int) $n;
	}
	return $counts;
}
