<?php
/**
 * Plugin Name: eSign REST API (test double)
 * Description: The eSign REST API (esign/v1) as a WordPress plugin: documents, signers, fields, sending, signing pages, templates, statistics, audit trail and signed webhooks. Written for the n8n-nodes-esign tests; not for production signing.
 * Version: 1.0.0
 * Requires at least: 6.1
 * Requires PHP: 8.2
 * License: MIT
 */

defined('ABSPATH') || exit;

require_once __DIR__ . '/includes/pdf.php';
require_once __DIR__ . '/includes/store.php';
require_once __DIR__ . '/includes/api.php';
require_once __DIR__ . '/includes/signing.php';

register_activation_hook(__FILE__, 'esign_install');

add_action('plugins_loaded', function () {
	if (get_option('esign_db_version') !== ESIGN_DB_VERSION) esign_install();
});
add_action('rest_api_init', 'esign_register_routes');
add_filter('rest_pre_dispatch', 'esign_check_rate_limit', 10, 3);
add_action('template_redirect', 'esign_signing_page', 0);
