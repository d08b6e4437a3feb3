<?php
/**
 * Router for PHP's built-in server: existing static files are served as they are, existing PHP
 * files (wp-login.php, wp-admin/…) run, and everything else goes to WordPress's index.php, which
 * serves /wp-json/… (pretty permalinks) and /?rest_route=/… (plain permalinks).
 */
$root = $_SERVER['DOCUMENT_ROOT'];
$path = rawurldecode(parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH) ?: '/');
$file = realpath($root . $path);
if ($file !== false && str_starts_with($file, realpath($root))) {
	if (is_dir($file) && is_file($file . '/index.php')) $file .= '/index.php';
	if (is_file($file) && !str_ends_with($file, '.php')) return false;
	if (is_file($file)) {
		$_SERVER['SCRIPT_FILENAME'] = $file;
		$_SERVER['SCRIPT_NAME'] = $_SERVER['PHP_SELF'] = substr($file, strlen(realpath($root)));
		chdir(dirname($file));
		require $file;
		return;
	}
}
$_SERVER['SCRIPT_FILENAME'] = $root . '/index.php';
$_SERVER['SCRIPT_NAME'] = $_SERVER['PHP_SELF'] = '/index.php';
chdir($root);
require $root . '/index.php';
