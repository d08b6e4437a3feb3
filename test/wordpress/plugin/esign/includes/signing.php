<?php
/**
 * The document state machine (send, view, sign, decline, complete, expire), signed webhooks sent
 * with wp_remote_post, the signed PDF, templates, and the signing page each signer gets.
 */

defined('ABSPATH') || exit;

const ESIGN_EVENTS = ['document.sent', 'document.viewed', 'document.signed', 'document.completed', 'document.declined', 'document.expired'];

/** Send prerequisites: at least one signer, a file, a signature field for every signer. */
function esign_assert_sendable($doc): array {
	$signers = esign_document_signers((int) $doc->id);
	if (!$signers) esign_fail(400, 'no_signers', 'The document has no signers. Add at least one signer before sending.');
	if (!$doc->file_path) esign_fail(400, 'no_file', 'The document has no file.');
	$fields = esign_document_fields((int) $doc->id);
	$missing = array_values(array_filter($signers, function ($s) use ($fields) {
		foreach ($fields as $f) if ((int) $f->signer_id === (int) $s->id && $f->field_type === 'signature') return false;
		return true;
	}));
	if ($missing) {
		esign_fail(400, 'missing_fields', 'Every signer needs a signature field. Missing for: ' . implode(', ', array_map(fn ($s) => $s->name, $missing)) . '.', [
			'signers' => array_map(fn ($s) => (string) $s->id, $missing),
		]);
	}
	return $signers;
}

/** draft → sent, one invitation per signer (signing order is recorded, not enforced). */
function esign_send_document($doc): array {
	if ($doc->status !== 'draft') esign_fail(400, 'invalid_state', "Only a draft can be sent; this document is {$doc->status}.");
	$signers = esign_assert_sendable($doc);
	esign_touch_document($doc, ['status' => 'sent']);
	$doc = esign_get_document((int) $doc->id);
	foreach ($signers as $s) esign_mail($doc, $s, 'invitation');
	esign_audit((int) $doc->id, 'document_sent');
	esign_emit('document.sent', esign_event_data($doc));
	return $signers;
}

function esign_expire_document($doc) {
	if (in_array($doc->status, ESIGN_TERMINAL, true)) esign_fail(400, 'invalid_state', "The document is already {$doc->status}.");
	$due = $doc->expires_at && strtotime($doc->expires_at . ' UTC') <= esign_time();
	if (!$due) {
		esign_fail(400, 'not_due', $doc->expires_at ? "The document does not expire before {$doc->expires_at}." : 'The document has no expiration date.');
	}
	esign_touch_document($doc, ['status' => 'expired']);
	$doc = esign_get_document((int) $doc->id);
	esign_audit((int) $doc->id, 'document_expired');
	esign_emit('document.expired', esign_event_data($doc));
	return $doc;
}

function esign_signer_by_token(string $token): array {
	global $wpdb;
	$signer = preg_match('~^[0-9a-f]{32}$~', $token) ? $wpdb->get_row($wpdb->prepare('SELECT * FROM ' . esign_table('signers') . ' WHERE token = %s', $token)) : null;
	if (!$signer) esign_fail(404, 'not_found', 'Signing link not found.');
	return [$signer, esign_get_document((int) $signer->document_id)];
}

function esign_assert_actionable($doc, $signer): void {
	if (!in_array($doc->status, ['sent', 'viewed'], true)) esign_fail(400, 'invalid_state', "The document is {$doc->status}, not awaiting signatures.");
	if (in_array($signer->status, ['signed', 'declined'], true)) esign_fail(400, 'invalid_state', "This signer has already {$signer->status}.");
}

/** A signer opens the document: pending → viewed, sent → viewed (first view only). */
function esign_view_document($doc, $signer): void {
	esign_assert_actionable($doc, $signer);
	if ($signer->status !== 'pending') return;
	$now = esign_ts();
	esign_update('signers', ['status' => 'viewed', 'viewed_at' => $now, 'updated_at' => $now], (int) $signer->id);
	esign_touch_document($doc, $doc->status === 'sent' ? ['status' => 'viewed'] : []);
	$signer = esign_get_signer((int) $signer->id);
	esign_audit((int) $doc->id, 'document_viewed', $signer);
	esign_emit('document.viewed', esign_event_data(esign_get_document((int) $doc->id), $signer));
}

function esign_default_value($f, $signer): string {
	switch ($f->field_type) {
		case 'signature': case 'name': return $signer->name;
		case 'initials': return strtoupper(implode('', array_map(fn ($w) => $w[0] ?? '', preg_split('~\s+~', trim($signer->name)))));
		case 'email': return $signer->email;
		case 'date': return substr(esign_ts(), 0, 10);
		case 'stamp': return 'Approved - ' . $signer->name;
		case 'checkbox': return $f->is_required ? '1' : '';
		case 'dropdown':
			$options = json_decode($f->options ?: '[]', true) ?: [];
			return $f->is_required ? (string) ($options[0] ?? '') : '';
		default: return $f->is_required ? ($f->placeholder ?: $f->field_name ?: 'Sample text') : '';
	}
}

/** Signs for one signer (implies view); the last signature completes the document. */
function esign_sign_document($doc, $signer, $values): void {
	esign_assert_actionable($doc, $signer);
	$own = array_values(array_filter(esign_document_fields((int) $doc->id), fn ($f) => (int) $f->signer_id === (int) $signer->id));
	$given = is_array($values) ? $values : [];
	$own_ids = array_map(fn ($f) => (string) $f->id, $own);
	foreach (array_keys($given) as $id) if (!in_array((string) $id, $own_ids, true)) esign_fail(400, 'invalid_data', "Field $id is not assigned to this signer.");
	esign_view_document($doc, $signer);
	$signer = esign_get_signer((int) $signer->id);
	$now = esign_ts();
	foreach ($own as $f) {
		$v = $given[(string) $f->id] ?? null;
		$value = $v !== null && $v !== '' && is_scalar($v) ? (string) $v : ($f->value === '' ? esign_default_value($f, $signer) : $f->value);
		esign_update('fields', ['value' => $value, 'updated_at' => $now], (int) $f->id);
	}
	esign_update('signers', ['status' => 'signed', 'signed_at' => $now, 'signed_ip' => esign_client_ip(), 'updated_at' => $now], (int) $signer->id);
	$signer = esign_get_signer((int) $signer->id);
	esign_touch_document($doc);
	esign_audit((int) $doc->id, 'document_signed', $signer);
	esign_emit('document.signed', esign_event_data(esign_get_document((int) $doc->id), $signer));
	$all_signed = !array_filter(esign_document_signers((int) $doc->id), fn ($s) => $s->status !== 'signed');
	if ($all_signed) {
		esign_touch_document($doc, ['status' => 'completed', 'completed_at' => $now]);
		esign_audit((int) $doc->id, 'document_completed');
		esign_emit('document.completed', esign_event_data(esign_get_document((int) $doc->id)));
	}
}

function esign_decline_document($doc, $signer, $reason): void {
	esign_view_document($doc, $signer);
	$text = is_string($reason) && trim($reason) !== '' ? trim($reason) : 'No reason given.';
	$now = esign_ts();
	esign_update('signers', ['status' => 'declined', 'declined_at' => $now, 'decline_reason' => $text, 'updated_at' => $now], (int) $signer->id);
	esign_touch_document($doc, ['status' => 'declined']);
	$signer = esign_get_signer((int) $signer->id);
	esign_audit((int) $doc->id, 'document_declined', $signer);
	esign_emit('document.declined', esign_event_data(esign_get_document((int) $doc->id), $signer, ['decline_reason' => $text]));
}

/** The signed PDF of a completed document: built on first request and kept. */
function esign_signed_pdf($doc): string {
	if ($doc->signed_path && is_file($doc->signed_path)) return file_get_contents($doc->signed_path);
	$signers = array_map(fn ($s) => (array) $s, esign_document_signers((int) $doc->id));
	$fields = array_map(fn ($f) => (array) $f, esign_document_fields((int) $doc->id));
	$original = file_get_contents($doc->file_path);
	try {
		$pdf = esign_build_signed_pdf($original, $doc->file_kind, (array) $doc, $fields, $signers, esign_audit_events((int) $doc->id));
	} catch (Throwable $e) {
		esign_fail(500, 'signed_pdf_failed', 'The signed PDF could not be built: ' . $e->getMessage());
	}
	$path = esign_store_file($pdf, esign_stem($doc->original_filename ?: 'document') . '-signed.pdf');
	esign_update('documents', ['signed_path' => $path], (int) $doc->id);
	return $pdf;
}

// ---------------------------------------------------------------- webhooks

/** The `data` of an event: ids as JSON integers; signer events add the signer, declines the reason. */
function esign_event_data($doc, $signer = null, array $extra = []): array {
	$data = ['document_id' => (int) $doc->id, 'document_title' => $doc->title, 'status' => $doc->status];
	if ($signer) $data += ['signer_id' => (int) $signer->id, 'signer_name' => $signer->name, 'signer_email' => $signer->email];
	return array_merge($data, $extra);
}

/** Receivers: option esign_webhooks, [{id, url, events|null}] (the site admin's webhook settings). */
function esign_emit(string $event, array $data): void {
	foreach ((array) get_option('esign_webhooks', []) as $receiver) {
		if (empty($receiver['events']) || in_array($event, $receiver['events'], true)) esign_deliver($receiver['url'], $event, $data);
	}
}

/**
 * One signed delivery with wp_remote_post: the signature is the HMAC-SHA256 of exactly the bytes
 * sent (wp_json_encode escapes slashes, so receivers must verify the raw body). One attempt, 5 s.
 */
function esign_deliver(string $url, string $event, array $data, int $timeout = 5): array {
	$body = wp_json_encode(['event' => $event, 'data' => $data, 'timestamp' => esign_ts()]);
	$signature = 'sha256=' . hash_hmac('sha256', $body, (string) get_option('esign_webhook_secret'));
	$started = microtime(true);
	$response = wp_remote_post($url, [
		'body' => $body,
		'timeout' => $timeout,
		'redirection' => 0,
		'headers' => [
			'Content-Type' => 'application/json; charset=UTF-8',
			'X-ESIGN-Signature' => $signature,
			'X-ESIGN-Event' => $event,
		],
		'user-agent' => 'eSign-WordPress-Webhooks/1.0; ' . home_url('/'),
	]);
	$delivery = [
		'url' => $url, 'event' => $event, 'body' => $body, 'signature' => $signature,
		'status' => is_wp_error($response) ? null : (int) wp_remote_retrieve_response_code($response),
		'error' => is_wp_error($response) ? $response->get_error_message() : null,
		// What the receiver answered (its first 500 bytes): the test scripts read from it whether a run started.
		'answer' => is_wp_error($response) ? null : substr((string) wp_remote_retrieve_body($response), 0, 500),
		'at' => esign_ts(), 'ms' => (int) round((microtime(true) - $started) * 1000),
	];
	do_action('esign_webhook_delivered', $delivery);
	return $delivery;
}

// ---------------------------------------------------------------- templates

function esign_template_row(int $id) {
	global $wpdb;
	return $wpdb->get_row($wpdb->prepare('SELECT * FROM ' . esign_table('templates') . ' WHERE id = %d', $id));
}

function esign_load_template(array $auth, $id) {
	$t = preg_match('~^\d+$~', (string) $id) ? esign_template_row((int) $id) : null;
	if (!$t) esign_fail(404, 'not_found', 'Template not found.');
	if (!esign_can_see($auth, $t)) esign_fail(403, 'forbidden', 'Permission denied.');
	return $t;
}

/** Variable key: the mapping name, else the field name; signature and initials are never prefillable. */
function esign_variable_key(array $f): string {
	if (in_array($f['field_type'], ['signature', 'initials'], true)) return '';
	return ($f['mapping_name'] ?? '') ?: ($f['field_name'] ?? '');
}

function esign_template_out($t): array {
	$variables = [];
	foreach (json_decode($t->fields, true) ?: [] as $f) {
		$key = esign_variable_key($f);
		if ($key === '' || array_filter($variables, fn ($v) => $v['key'] === $key)) continue;
		$label = $f['field_name'] ?: ucfirst(preg_replace('~[_-]+~', ' ', $key));
		$variables[] = ['key' => $key, 'label' => $label, 'field_type' => $f['field_type']];
	}
	return [
		'id' => (int) $t->id, 'name' => $t->name, 'description' => $t->description, 'original_filename' => $t->original_filename,
		'total_pages' => (int) $t->total_pages, 'created_at' => $t->created_at, 'updated_at' => $t->updated_at, 'variables' => $variables,
	];
}

/** Adds a template; $fields use `signer` (index by signing order) instead of signer_id. */
function esign_add_template(int $owner, string $name, string $description, string $filename, array $file, array $fields): int {
	global $wpdb;
	$now = esign_ts();
	$wpdb->insert(esign_table('templates'), [
		'owner_id' => $owner, 'name' => $name, 'description' => $description, 'original_filename' => $filename,
		'total_pages' => $file['pages'], 'file_path' => $file['path'] ?? esign_store_file($file['bytes'], $filename), 'file_kind' => $file['kind'],
		'file_hash' => $file['hash'], 'fields' => wp_json_encode($fields), 'created_at' => $now, 'updated_at' => $now,
	]);
	return (int) $wpdb->insert_id;
}

function esign_api_list_templates(WP_REST_Request $r, array $auth) {
	global $wpdb;
	$input = esign_input($r);
	$per_page = esign_int_param($input, 'per_page', 50, 100);
	$search = is_string($input['search'] ?? null) ? strtolower($input['search']) : '';
	$table = esign_table('templates');
	$rows = $auth['is_admin'] ? $wpdb->get_results("SELECT * FROM $table ORDER BY id") : $wpdb->get_results($wpdb->prepare("SELECT * FROM $table WHERE owner_id = %d ORDER BY id", $auth['user_id']));
	if ($search !== '') $rows = array_filter($rows, fn ($t) => str_contains(strtolower($t->name), $search) || str_contains(strtolower($t->description), $search));
	return array_map('esign_template_out', array_slice(array_values($rows), 0, $per_page));
}

function esign_api_get_template(WP_REST_Request $r, array $auth) {
	return esign_template_out(esign_load_template($auth, $r['id']));
}

/** Validates `signers` (or signer_name/signer_email). */
function esign_read_template_signers(array $input): array {
	$raw = $input['signers'] ?? null;
	if ($raw !== null && !(is_array($raw) && array_is_list($raw))) esign_fail(400, 'invalid_data', 'signers must be an array.');
	$raw = $raw ?: [];
	if (!$raw && (array_key_exists('signer_name', $input) || array_key_exists('signer_email', $input))) {
		$raw = [['name' => $input['signer_name'] ?? null, 'email' => $input['signer_email'] ?? null]];
	}
	$signers = [];
	$seen = [];
	foreach ($raw as $i => $s) {
		$n = $i + 1;
		if (!is_array($s) || array_is_list($s) && $s !== []) esign_fail(400, 'invalid_data', "Signer $n: must be an object.");
		if (!esign_is_text($s['name'] ?? null)) esign_fail(400, 'invalid_data', "Signer $n: name is required.");
		if (!esign_is_text($s['email'] ?? null) || !preg_match(ESIGN_EMAIL_RE, trim($s['email']))) esign_fail(400, 'invalid_data', "Signer $n: a valid email is required.");
		$role = esign_present($s['role'] ?? null) ? $s['role'] : 'signer';
		if ($role !== 'signer') esign_fail(400, 'invalid_role', "Signer $n: role must be \"signer\".");
		$order = $n;
		if (esign_present($s['signing_order'] ?? null)) {
			$order = esign_to_int($s['signing_order']);
			if ($order === null || $order < 1) esign_fail(400, 'invalid_data', "Signer $n: signing_order must be an integer of at least 1.");
		}
		$email = trim($s['email']);
		$login = esign_to_bool($s['require_wp_login'] ?? null) === true;
		if ($login && !get_user_by('email', $email)) {
			esign_fail(400, 'invalid_signer', "Signer $n: require_wp_login needs an email that belongs to a user of this site ($email does not).");
		}
		$signers[] = ['name' => trim($s['name']), 'email' => $email, 'role' => 'signer', 'signing_order' => $order, 'require_wp_login' => $login];
	}
	foreach ($signers as $s) {
		$k = strtolower($s['email']);
		if (isset($seen[$k])) esign_fail(400, 'duplicate_signer', "{$s['email']} is listed twice.");
		$seen[$k] = true;
	}
	return $signers;
}

function esign_api_create_from_template(WP_REST_Request $r, array $auth) {
	$template = esign_load_template($auth, $r['id']);
	$input = esign_input($r);
	$send = array_key_exists('send', $input) && $input['send'] !== null ? esign_to_bool($input['send']) : true;
	if ($send === null) esign_fail(400, 'invalid_data', 'send must be a boolean.');
	$vars_in = $input['variables'] ?? null;
	if ($vars_in !== null && !(is_array($vars_in) && (!array_is_list($vars_in) || $vars_in === []))) esign_fail(400, 'invalid_data', 'variables must be an object of variable keys to values.');
	if (isset($input['title']) && !is_string($input['title'])) esign_fail(400, 'invalid_data', 'title must be a string.');
	$signer_input = esign_read_template_signers($input);
	if ($send && !$signer_input) esign_fail(400, 'no_signers', 'At least one signer is required when send is true.');
	$variables = $vars_in ?: [];
	foreach (['client_name', 'property_address', 'appointment_date'] as $k) {
		if (!esign_present($variables[$k] ?? null) && esign_present($input[$k] ?? null)) $variables[$k] = $input[$k];
	}
	$title = esign_is_text($input['title'] ?? null) ? trim($input['title']) : $template->name . ' - ' . esign_ts();
	$file = ['path' => $template->file_path, 'kind' => $template->file_kind, 'pages' => (int) $template->total_pages, 'hash' => $template->file_hash];
	$doc_id = esign_create_document($auth['user_id'], $title, $template->original_filename, $file, (int) $template->id);
	esign_audit($doc_id, 'document_created');
	foreach ($signer_input as $s) esign_create_signer($doc_id, $s);
	$signers = esign_document_signers($doc_id);
	foreach ($signers as $s) esign_audit($doc_id, 'signer_added', $s);
	$prefilled = false;
	$template_fields = json_decode($template->fields, true) ?: [];
	foreach ($template_fields as $tf) {
		$signer = $signers[(int) $tf['signer']] ?? null;
		if (!$signer) continue; // no signer at that position: the field is dropped
		$key = esign_variable_key($tf);
		$field = $tf;
		$field['signer_id'] = (int) $signer->id;
		$field['value'] = '';
		if ($key !== '' && esign_present($variables[$key] ?? null) && is_scalar($variables[$key])) {
			$field['value'] = is_bool($variables[$key]) ? ($variables[$key] ? 'true' : 'false') : (string) $variables[$key];
			$prefilled = true;
		}
		esign_create_field($doc_id, $field);
	}
	if ($template_fields) esign_audit($doc_id, 'fields_updated');
	$sent = false;
	$send_error = null;
	if ($send) {
		try {
			esign_send_document(esign_get_document($doc_id));
			$sent = true;
		} catch (ESign_Error $e) {
			$send_error = $e->getMessage();
		}
	}
	$doc = esign_get_document($doc_id);
	$message = $sent ? sprintf('Document created from template and sent to %d signer(s).', count($signers))
		: ($send_error ? 'Document created from template, but it could not be sent.' : 'Document created from template as a draft.');
	return new WP_REST_Response([
		'id' => $doc_id, 'document_id' => $doc_id, 'template_id' => (int) $template->id, 'title' => $doc->title, 'status' => $doc->status,
		'prefilled' => $prefilled, 'sent' => $sent, 'message' => $message,
		'signers' => array_map(fn ($s) => [
			'id' => (int) $s->id, 'name' => $s->name, 'email' => $s->email, 'role' => $s->role, 'signing_order' => (int) $s->signing_order,
			'status' => $s->status, 'signing_url' => esign_signing_url($s),
		], esign_document_signers($doc_id)),
		'send_error' => $send_error,
	], 201);
}

// ---------------------------------------------------------------- signing page

/**
 * `/?esign_sign=<token>`: opening it records the view; the form posts `esign_action=sign` (with
 * values[fieldId]) or `esign_action=decline` (with reason) back to the same address.
 */
function esign_signing_page(): void {
	if (!isset($_GET['esign_sign'])) return;
	$token = sanitize_key(wp_unslash($_GET['esign_sign']));
	$notice = '';
	$status = 200;
	try {
		[$signer, $doc] = esign_signer_by_token($token);
		$action = isset($_POST['esign_action']) ? sanitize_key(wp_unslash($_POST['esign_action'])) : '';
		if ($action === 'sign') {
			esign_sign_document($doc, $signer, isset($_POST['values']) ? array_map('sanitize_text_field', (array) wp_unslash($_POST['values'])) : []);
			$notice = 'Thank you: you signed the document.';
		} elseif ($action === 'decline') {
			esign_decline_document($doc, $signer, isset($_POST['reason']) ? sanitize_textarea_field(wp_unslash($_POST['reason'])) : '');
			$notice = 'You declined the document.';
		} elseif (in_array($doc->status, ['sent', 'viewed'], true) && $signer->status === 'pending') {
			esign_view_document($doc, $signer);
		}
		[$signer, $doc] = esign_signer_by_token($token);
	} catch (ESign_Error $e) {
		$status = $e->status;
		$notice = $e->getMessage();
		if ($e->error_code === 'not_found') {
			status_header(404);
			nocache_headers();
			echo '<!doctype html><title>Signing link not found</title><p>This signing link is not valid.</p>';
			exit;
		}
	}
	status_header($status);
	nocache_headers();
	header('Content-Type: text/html; charset=utf-8');
	$fields = array_filter(esign_document_fields((int) $doc->id), fn ($f) => (int) $f->signer_id === (int) $signer->id);
	$open = in_array($doc->status, ['sent', 'viewed'], true) && !in_array($signer->status, ['signed', 'declined'], true);
	$url = esc_url(esign_signing_url($signer));
	echo '<!doctype html><html><head><meta charset="utf-8"><title>' . esc_html('Sign: ' . $doc->title) . '</title></head><body>';
	echo '<h1>' . esc_html($doc->title) . '</h1>';
	echo '<p>Signer: ' . esc_html($signer->name) . ' &lt;' . esc_html($signer->email) . '&gt; — status <strong id="signer-status">' . esc_html($signer->status) . '</strong>; document <strong id="document-status">' . esc_html($doc->status) . '</strong></p>';
	if ($notice) echo '<p id="notice">' . esc_html($notice) . '</p>';
	if ($open) {
		echo '<form method="post" action="' . $url . '" id="sign"><input type="hidden" name="esign_action" value="sign"><ul>';
		foreach ($fields as $f) {
			echo '<li><label>' . esc_html(($f->field_name ?: $f->field_type) . ' (page ' . $f->page_number . ')') . ' <input name="values[' . (int) $f->id . ']" value="' . esc_attr($f->value) . '" placeholder="' . esc_attr($f->placeholder) . '"></label></li>';
		}
		echo '</ul><button type="submit">Sign</button></form>';
		echo '<form method="post" action="' . $url . '" id="decline"><input type="hidden" name="esign_action" value="decline"><input name="reason" placeholder="Reason"><button type="submit">Decline</button></form>';
	}
	echo '</body></html>';
	exit;
}
