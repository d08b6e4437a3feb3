<?php
/**
 * Installs or updates the throwaway site: `php setup.php <core dir> <config.json>`. The config gives
 * the URL, the permalink style, the users, the API keys and the webhook secret. A second run on an
 * installed site only brings settings up to date (URL, permalinks, keys) and keeps the data.
 */
[$script, $core, $configFile] = $argv + [null, null, null];
$config = json_decode(file_get_contents($configFile), true);
define('WP_INSTALLING', true);
$_SERVER['HTTP_HOST'] = parse_url($config['url'], PHP_URL_HOST) . ':' . parse_url($config['url'], PHP_URL_PORT);
$_SERVER['REQUEST_URI'] = '/';
require $core . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
require_once ABSPATH . 'wp-admin/includes/plugin.php';

$fresh = !is_blog_installed();
if ($fresh) {
	$admin = $config['users']['admin'];
	wp_install('eSign test site', $admin['login'], $admin['email'], false, '', wp_generate_password(24));
	wp_update_user(['ID' => 1, 'display_name' => $admin['name']]);
}
update_option('siteurl', $config['url']);
update_option('home', $config['url']);
// Through WP_Rewrite (as the Permalinks screen does), so the stored rewrite rules follow the structure.
global $wp_rewrite;
$wp_rewrite->set_permalink_structure($config['permalinks'] === 'plain' ? '' : '/%postname%/');
$wp_rewrite->flush_rules(false);
update_option('blog_public', '0');

$ids = [];
foreach ($config['users'] as $name => $u) {
	$user = get_user_by('email', $u['email']);
	if (!$user) {
		$id = wp_insert_user(['user_login' => $u['login'], 'user_email' => $u['email'], 'display_name' => $u['name'], 'user_pass' => wp_generate_password(24), 'role' => $u['isAdmin'] ? 'administrator' : 'author']);
		if (is_wp_error($id)) { fwrite(STDERR, $id->get_error_message() . "\n"); exit(1); }
		$user = get_user_by('id', $id);
	}
	$ids[$name] = $user->ID;
}

$result = activate_plugin('esign/esign.php');
if (is_wp_error($result)) { fwrite(STDERR, 'activate esign: ' . $result->get_error_message() . "\n"); exit(1); }
require_once WP_PLUGIN_DIR . '/esign/esign.php'; // already active: WP_INSTALLING did not load it
esign_install();
esign_test_install();

// Keys are stored hashed; the plain values are kept only for the test site's /keys control.
$plain = [];
foreach ($config['keys'] as $name => $k) {
	esign_create_key($ids[$k['user']], $name, $k['access'] === 'full' ? 'full' : 'read', $k['key'], $k['secret'], "Test key for {$k['user']}");
	$plain[$name] = ['key' => $k['key'], 'secret' => $k['secret']];
}
update_option('esign_test_keys', $plain);
if (!empty($config['webhookSecret'])) update_option('esign_webhook_secret', $config['webhookSecret']);
if ($fresh) {
	update_option('esign_rate_limits', ['enabled' => true, 'per_key_per_hour' => 0, 'per_ip_per_minute' => 100]);
	esign_test_reset();
}
echo json_encode(['installed' => $fresh, 'users' => $ids, 'permalinks' => get_option('permalink_structure') ?: 'plain']) . "\n";
