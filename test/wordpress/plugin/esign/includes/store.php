<?php
/**
 * Storage: custom tables (dbDelta), the clock, files under wp-content/uploads, audit records,
 * emails (wp_mail) and the serialisers that give API objects their exact shapes. Values come
 * back from $wpdb as strings, which is what the spec shows for documents, signers and fields.
 */

defined('ABSPATH') || exit;

const ESIGN_DB_VERSION = '1.0.0';
const ESIGN_STATUSES = ['draft', 'sent', 'viewed', 'completed', 'declined', 'expired'];
const ESIGN_TERMINAL = ['completed', 'declined', 'expired'];
const ESIGN_MAX_UPLOAD = 20 * 1024 * 1024;
const ESIGN_FIELD_DEFAULTS = [
	'signature' => [200, 60], 'initials' => [100, 50], 'name' => [150, 30], 'email' => [200, 30], 'date' => [100, 30],
	'text' => [200, 30], 'textarea' => [200, 80], 'checkbox' => [20, 20], 'dropdown' => [150, 30], 'stamp' => [150, 100],
];

/** An API error in WordPress's REST shape; handlers throw it, the route wrapper answers it. */
class ESign_Error extends Exception {
	public int $status;
	public string $error_code;
	public array $data;
	public array $headers;

	public function __construct(int $status, string $code, string $message, array $data = [], array $headers = []) {
		parent::__construct($message);
		$this->status = $status;
		$this->error_code = $code;
		$this->data = $data;
		$this->headers = $headers;
	}

	public function response(): WP_REST_Response {
		$res = new WP_REST_Response(['code' => $this->error_code, 'message' => $this->getMessage(), 'data' => array_merge(['status' => $this->status], $this->data)], $this->status);
		foreach ($this->headers as $k => $v) $res->header($k, $v);
		return $res;
	}
}

function esign_fail(int $status, string $code, string $message, array $data = [], array $headers = []): never {
	throw new ESign_Error($status, $code, $message, $data, $headers);
}

function esign_invalid_param(string $name, string $reason): never {
	esign_fail(400, 'rest_invalid_param', "Invalid parameter(s): $name", ['params' => [$name => $reason]]);
}

// ---------------------------------------------------------------- clock

/** The site's clock; the test site's mu-plugin can move it (filter esign_now). */
function esign_time(): int {
	return (int) apply_filters('esign_now', time());
}

function esign_ts(?int $t = null): string {
	return gmdate('Y-m-d H:i:s', $t ?? esign_time());
}

// ---------------------------------------------------------------- tables

function esign_table(string $name): string {
	global $wpdb;
	return $wpdb->prefix . 'esign_' . $name;
}

function esign_install(): void {
	global $wpdb;
	require_once ABSPATH . 'wp-admin/includes/upgrade.php';
	$c = $wpdb->get_charset_collate();
	$t = fn ($n) => esign_table($n);
	dbDelta("CREATE TABLE {$t('keys')} (
  id bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  user_id bigint(20) unsigned NOT NULL,
  name varchar(191) NOT NULL DEFAULT '',
  description text NOT NULL,
  api_key varchar(64) NOT NULL,
  secret_hash char(64) NOT NULL,
  permission varchar(10) NOT NULL DEFAULT 'full',
  rate_limit int(11) NOT NULL DEFAULT 1000,
  created_at datetime NOT NULL,
  PRIMARY KEY  (id),
  UNIQUE KEY api_key (api_key)
) $c;");
	dbDelta("CREATE TABLE {$t('documents')} (
  id bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  owner_id bigint(20) unsigned NOT NULL,
  template_id bigint(20) unsigned DEFAULT NULL,
  title varchar(255) NOT NULL,
  status varchar(20) NOT NULL DEFAULT 'draft',
  original_filename varchar(255) NOT NULL DEFAULT '',
  total_pages int(11) NOT NULL DEFAULT 0,
  file_path varchar(500) NOT NULL DEFAULT '',
  file_kind varchar(10) NOT NULL DEFAULT '',
  file_hash char(64) NOT NULL DEFAULT '',
  signed_path varchar(500) NOT NULL DEFAULT '',
  expires_at datetime DEFAULT NULL,
  completed_at datetime DEFAULT NULL,
  created_at datetime NOT NULL,
  updated_at datetime NOT NULL,
  PRIMARY KEY  (id),
  KEY owner_status (owner_id,status)
) $c;");
	dbDelta("CREATE TABLE {$t('signers')} (
  id bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  document_id bigint(20) unsigned NOT NULL,
  name varchar(191) NOT NULL,
  email varchar(191) NOT NULL,
  role varchar(20) NOT NULL DEFAULT 'signer',
  signing_order int(11) NOT NULL DEFAULT 1,
  status varchar(20) NOT NULL DEFAULT 'pending',
  require_wp_login tinyint(1) NOT NULL DEFAULT 0,
  token char(32) NOT NULL,
  signed_ip varchar(64) DEFAULT NULL,
  viewed_at datetime DEFAULT NULL,
  signed_at datetime DEFAULT NULL,
  declined_at datetime DEFAULT NULL,
  decline_reason text DEFAULT NULL,
  created_at datetime NOT NULL,
  updated_at datetime NOT NULL,
  PRIMARY KEY  (id),
  KEY document_id (document_id),
  UNIQUE KEY token (token)
) $c;");
	dbDelta("CREATE TABLE {$t('fields')} (
  id bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  document_id bigint(20) unsigned NOT NULL,
  signer_id bigint(20) unsigned NOT NULL,
  field_type varchar(20) NOT NULL,
  field_name varchar(191) NOT NULL DEFAULT '',
  mapping_name varchar(191) NOT NULL DEFAULT '',
  page_number int(11) NOT NULL,
  position_x decimal(10,2) NOT NULL,
  position_y decimal(10,2) NOT NULL,
  width decimal(10,2) NOT NULL,
  height decimal(10,2) NOT NULL,
  value text NOT NULL,
  placeholder varchar(255) NOT NULL DEFAULT '',
  is_required tinyint(1) NOT NULL DEFAULT 1,
  font_size int(11) NOT NULL DEFAULT 14,
  font_family varchar(100) NOT NULL DEFAULT 'DM Sans',
  options text NOT NULL,
  created_at datetime NOT NULL,
  updated_at datetime NOT NULL,
  PRIMARY KEY  (id),
  KEY document_id (document_id)
) $c;");
	dbDelta("CREATE TABLE {$t('templates')} (
  id bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  owner_id bigint(20) unsigned NOT NULL,
  name varchar(191) NOT NULL,
  description text NOT NULL,
  original_filename varchar(255) NOT NULL DEFAULT '',
  total_pages int(11) NOT NULL DEFAULT 0,
  file_path varchar(500) NOT NULL DEFAULT '',
  file_kind varchar(10) NOT NULL DEFAULT '',
  file_hash char(64) NOT NULL DEFAULT '',
  fields longtext NOT NULL,
  created_at datetime NOT NULL,
  updated_at datetime NOT NULL,
  PRIMARY KEY  (id)
) $c;");
	dbDelta("CREATE TABLE {$t('audit')} (
  id bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  document_id bigint(20) unsigned NOT NULL,
  action varchar(50) NOT NULL,
  signer varchar(191) DEFAULT NULL,
  ip_address varchar(64) NOT NULL DEFAULT '',
  user_agent text DEFAULT NULL,
  created_at datetime NOT NULL,
  PRIMARY KEY  (id),
  KEY document_id (document_id)
) $c;");
	update_option('esign_db_version', ESIGN_DB_VERSION);
	if (!get_option('esign_webhook_secret')) update_option('esign_webhook_secret', 'whsec_' . wp_generate_password(32, false));
	wp_mkdir_p(esign_storage_dir());
}

// ---------------------------------------------------------------- files

/** Secure storage under wp-content/uploads; never served as a public URL (deny files for Apache/IIS). */
function esign_storage_dir(): string {
	$dir = wp_upload_dir(null, false)['basedir'] . '/esign-secure';
	if (!is_dir($dir)) {
		wp_mkdir_p($dir);
		@file_put_contents("$dir/.htaccess", "Require all denied\nDeny from all\n");
		@file_put_contents("$dir/index.php", "<?php // Silence is golden.\n");
	}
	return $dir;
}

/** Stores bytes in the secure storage; returns the absolute path. */
function esign_store_file(string $bytes, string $name): string {
	$safe = preg_replace('~[^\w.-]+~', '_', $name) ?: 'file';
	$path = esign_storage_dir() . '/' . bin2hex(random_bytes(8)) . '-' . $safe;
	file_put_contents($path, $bytes);
	return $path;
}

/** A path inside the secure storage (no traversal, no symlinks out), or null. */
function esign_secure_path(string $path): ?string {
	$real = realpath($path);
	$base = realpath(esign_storage_dir());
	return $real && $base && str_starts_with($real, $base . DIRECTORY_SEPARATOR) && is_file($real) ? $real : null;
}

function esign_stem(string $name): string {
	return preg_replace('~\.[^./\\\\]*$~', '', $name);
}

/**
 * Checks an uploaded file's bytes: missing, too large, type by content, readable. Returns
 * ['bytes', 'kind', 'pages', 'hash', 'filename'].
 */
function esign_read_upload(?array $file): array {
	if (!$file || !empty($file['error']) || empty($file['tmp_name']) || !is_uploaded_file($file['tmp_name']) && !is_file($file['tmp_name'])) {
		esign_fail(400, 'missing_file', 'No file was uploaded. Send it as the multipart/form-data field "file".');
	}
	$size = filesize($file['tmp_name']);
	if ($size === 0) esign_fail(400, 'missing_file', 'No file was uploaded. Send it as the multipart/form-data field "file".');
	if ($size > ESIGN_MAX_UPLOAD) esign_fail(413, 'file_too_large', 'The file is larger than the 20 MB limit.');
	$checked = esign_check_file(file_get_contents($file['tmp_name']));
	$filename = (string) ($file['name'] ?? '') ?: 'document.' . ESIGN_FILE_KINDS[$checked['kind']]['ext'];
	return $checked + ['filename' => wp_basename($filename)];
}

/** A file's type by content and its pages: ['bytes', 'kind', 'pages', 'hash'], or 400 invalid_file_type. */
function esign_check_file(string $bytes): array {
	$kind = esign_detect_type($bytes);
	if (!$kind) esign_fail(400, 'invalid_file_type', 'Only PDF, PNG and JPG files are accepted.');
	try {
		$pages = esign_count_pages($bytes, $kind);
	} catch (Throwable $e) {
		esign_fail(400, 'invalid_file_type', 'The PDF file could not be read.');
	}
	return ['bytes' => $bytes, 'kind' => $kind, 'pages' => $pages, 'hash' => hash('sha256', $bytes)];
}

// ---------------------------------------------------------------- users and access

function esign_is_admin(int $user_id): bool {
	return user_can($user_id, 'manage_options');
}

function esign_can_see(array $auth, $record): bool {
	return $auth['is_admin'] || (int) $record->owner_id === (int) $auth['user_id'];
}

function esign_get_document(int $id) {
	global $wpdb;
	return $wpdb->get_row($wpdb->prepare('SELECT * FROM ' . esign_table('documents') . ' WHERE id = %d', $id));
}

/** The document, or 404 not_found / 403 forbidden. */
function esign_load_document(array $auth, $id) {
	$doc = preg_match('~^\d+$~', (string) $id) ? esign_get_document((int) $id) : null;
	if (!$doc) esign_fail(404, 'not_found', 'Document not found.');
	if (!esign_can_see($auth, $doc)) esign_fail(403, 'forbidden', 'Permission denied.');
	return $doc;
}

function esign_document_signers(int $doc_id): array {
	global $wpdb;
	return $wpdb->get_results($wpdb->prepare('SELECT * FROM ' . esign_table('signers') . ' WHERE document_id = %d ORDER BY signing_order, id', $doc_id));
}

function esign_document_fields(int $doc_id): array {
	global $wpdb;
	return $wpdb->get_results($wpdb->prepare('SELECT * FROM ' . esign_table('fields') . ' WHERE document_id = %d ORDER BY id', $doc_id));
}

function esign_update(string $table, array $values, int $id): void {
	global $wpdb;
	$wpdb->update(esign_table($table), $values, ['id' => $id]);
}

function esign_touch_document($doc, array $values = []): void {
	esign_update('documents', array_merge($values, ['updated_at' => esign_ts()]), (int) $doc->id);
}

function esign_create_document(int $owner, string $title, string $original_filename, ?array $file, ?int $template_id = null, string $status = 'draft'): int {
	global $wpdb;
	$now = esign_ts();
	$path = $file ? ($file['path'] ?? esign_store_file($file['bytes'], $original_filename ?: 'document')) : '';
	$wpdb->insert(esign_table('documents'), [
		'owner_id' => $owner, 'template_id' => $template_id, 'title' => $title, 'status' => $status,
		'original_filename' => $original_filename, 'total_pages' => $file ? $file['pages'] : 0,
		'file_path' => $path, 'file_kind' => $file ? $file['kind'] : '', 'file_hash' => $file ? $file['hash'] : '',
		'created_at' => $now, 'updated_at' => $now,
	]);
	return (int) $wpdb->insert_id;
}

function esign_create_signer(int $doc_id, array $s): int {
	global $wpdb;
	$now = esign_ts();
	$wpdb->insert(esign_table('signers'), [
		'document_id' => $doc_id, 'name' => $s['name'], 'email' => $s['email'], 'role' => $s['role'] ?? 'signer',
		'signing_order' => $s['signing_order'], 'status' => 'pending', 'require_wp_login' => !empty($s['require_wp_login']) ? 1 : 0,
		'token' => bin2hex(random_bytes(16)), 'created_at' => $now, 'updated_at' => $now,
	]);
	return (int) $wpdb->insert_id;
}

function esign_create_field(int $doc_id, array $f): int {
	global $wpdb;
	$now = esign_ts();
	$wpdb->insert(esign_table('fields'), [
		'document_id' => $doc_id, 'signer_id' => $f['signer_id'], 'field_type' => $f['field_type'],
		'field_name' => $f['field_name'] ?? '', 'mapping_name' => $f['mapping_name'] ?? '',
		'page_number' => $f['page_number'], 'position_x' => $f['position_x'], 'position_y' => $f['position_y'],
		'width' => $f['width'], 'height' => $f['height'], 'value' => $f['value'] ?? '', 'placeholder' => $f['placeholder'] ?? '',
		'is_required' => !empty($f['is_required']) ? 1 : 0, 'font_size' => $f['font_size'] ?? 14, 'font_family' => $f['font_family'] ?? 'DM Sans',
		'options' => !empty($f['options']) ? wp_json_encode(array_values($f['options'])) : '',
		'created_at' => $now, 'updated_at' => $now,
	]);
	return (int) $wpdb->insert_id;
}

/** Hard delete of a document, its signers, fields, audit and files; counted for /stats.deleted. */
function esign_delete_document($doc): void {
	global $wpdb;
	foreach (['signers', 'fields', 'audit'] as $t) $wpdb->delete(esign_table($t), ['document_id' => $doc->id]);
	$wpdb->delete(esign_table('documents'), ['id' => $doc->id]);
	if ($doc->signed_path) @unlink($doc->signed_path);
	$shared = $doc->file_path && $wpdb->get_var($wpdb->prepare('SELECT COUNT(*) FROM ' . esign_table('documents') . ' WHERE file_path = %s', $doc->file_path))
		+ $wpdb->get_var($wpdb->prepare('SELECT COUNT(*) FROM ' . esign_table('templates') . ' WHERE file_path = %s', $doc->file_path));
	if ($doc->file_path && !$shared) @unlink($doc->file_path);
	$deleted = get_option('esign_deleted_counts', []);
	$deleted[(int) $doc->owner_id] = ($deleted[(int) $doc->owner_id] ?? 0) + 1;
	update_option('esign_deleted_counts', $deleted, false);
}

// ---------------------------------------------------------------- audit and mail

function esign_client_ip(): string {
	return isset($_SERVER['REMOTE_ADDR']) ? sanitize_text_field(wp_unslash($_SERVER['REMOTE_ADDR'])) : '127.0.0.1';
}

function esign_audit(int $doc_id, string $action, $signer = null): void {
	global $wpdb;
	$ua = isset($_SERVER['HTTP_USER_AGENT']) ? sanitize_text_field(wp_unslash($_SERVER['HTTP_USER_AGENT'])) : null;
	$wpdb->insert(esign_table('audit'), [
		'document_id' => $doc_id, 'action' => $action, 'signer' => $signer ? $signer->name : null,
		'ip_address' => esign_client_ip(), 'user_agent' => $ua ?: null, 'created_at' => esign_ts(),
	]);
}

function esign_audit_events(int $doc_id): array {
	global $wpdb;
	$rows = $wpdb->get_results($wpdb->prepare('SELECT * FROM ' . esign_table('audit') . ' WHERE document_id = %d ORDER BY id', $doc_id));
	return array_map(function ($r) {
		$e = ['action' => $r->action, 'timestamp' => $r->created_at, 'ip_address' => $r->ip_address];
		if ($r->signer !== null) $e['signer'] = $r->signer;
		if ($r->user_agent) $e['user_agent'] = $r->user_agent;
		return $e;
	}, $rows);
}

function esign_signing_url($signer): string {
	return add_query_arg('esign_sign', $signer->token, home_url('/'));
}

/** Invitation or reminder through wp_mail; the X-ESign-* headers let a mail log tell them apart. */
function esign_mail($doc, $signer, string $kind): void {
	$subject = $kind === 'invitation' ? "Please sign: {$doc->title}" : "Reminder: please sign {$doc->title}";
	$url = esign_signing_url($signer);
	$body = "Hello {$signer->name},\n\n" . ($kind === 'invitation' ? 'You have been asked to sign' : 'This is a reminder to sign') . " \"{$doc->title}\".\n\nOpen the document: $url\n";
	wp_mail(sprintf('%s <%s>', $signer->name, $signer->email), $subject, $body, [
		'X-ESign-Kind: ' . $kind,
		'X-ESign-Document: ' . $doc->id,
		'X-ESign-Signer: ' . $signer->id,
		'X-ESign-Signing-Url: ' . $url,
	]);
}

// ---------------------------------------------------------------- serialisers (exact API shapes)

function esign_document_out($doc, bool $full = false): array {
	$out = [
		'id' => (string) $doc->id,
		'title' => $doc->title,
		'status' => $doc->status,
		'original_filename' => $doc->original_filename,
		'total_pages' => (string) $doc->total_pages,
		'expires_at' => $doc->expires_at,
		'completed_at' => $doc->completed_at,
		'created_at' => $doc->created_at,
		'updated_at' => $doc->updated_at,
	];
	if ($full) {
		$out['file_hash'] = $doc->file_hash;
		$out['signers'] = array_map('esign_signer_out', esign_document_signers((int) $doc->id));
		$out['fields'] = array_map('esign_field_reduced_out', esign_document_fields((int) $doc->id));
	}
	return $out;
}

function esign_signer_out($s): array {
	return [
		'id' => (string) $s->id, 'document_id' => (string) $s->document_id, 'name' => $s->name, 'email' => $s->email,
		'role' => $s->role, 'signing_order' => (string) $s->signing_order, 'status' => $s->status,
		'viewed_at' => $s->viewed_at, 'signed_at' => $s->signed_at, 'declined_at' => $s->declined_at,
		'decline_reason' => $s->decline_reason, 'created_at' => $s->created_at, 'updated_at' => $s->updated_at,
	];
}

/** Decimal columns come back as "72.00"; the API shows "72" (and "72.5" for fractions). */
function esign_number_string($v): string {
	$s = (string) $v;
	return str_contains($s, '.') ? rtrim(rtrim($s, '0'), '.') : $s;
}

function esign_field_reduced_out($f): array {
	return [
		'id' => (string) $f->id, 'document_id' => (string) $f->document_id, 'signer_id' => (string) $f->signer_id,
		'field_type' => $f->field_type, 'page_number' => (string) $f->page_number,
		'position_x' => esign_number_string($f->position_x), 'position_y' => esign_number_string($f->position_y),
		'width' => esign_number_string($f->width), 'height' => esign_number_string($f->height),
		'is_required' => $f->is_required ? '1' : '0',
	];
}

function esign_field_out($f): array {
	return array_merge(esign_field_reduced_out($f), [
		'field_name' => $f->field_name, 'value' => $f->value, 'placeholder' => $f->placeholder,
		'font_size' => (string) $f->font_size, 'font_family' => $f->font_family, 'options' => $f->options,
		'created_at' => $f->created_at, 'updated_at' => $f->updated_at,
	]);
}
