// A web application firewall in front of the WordPress test site, as many shared and cPanel hosts run one:
// Debian 12's Apache 2.4 with ModSecurity 2.9 (libapache2-mod-security2) and the OWASP Core Rule Set 3.3
// (modsecurity-crs), ModSecurity's recommended configuration with SecRuleEngine On, CRS's defaults, and no
// exclusion written for this API. Apache runs as a throwaway process with its own config, pid, logs and port
// inside the site folder (never the system's apache2 service) and hands every request that passes to
// WordPress's index.php in PHP-FPM over FastCGI (mod_proxy_fcgi), the way shared hosts run PHP; it does not
// read the site folder itself, so its www-data workers need no access to it.
import fs from 'node:fs';
import path from 'node:path';
import { spawnService } from '../../scripts/lib/services.mjs';

export const APACHE = '/usr/sbin/apache2';
const MODULES = '/usr/lib/apache2/modules';
const RECOMMENDED = '/etc/modsecurity/modsecurity.conf-recommended';
const CRS_RULES = '/usr/share/modsecurity-crs/rules';
const isRoot = () => process.getuid?.() === 0;
/** localhost may resolve to ::1 first: Apache listens there too when the machine has it. */
const hasIpv6Loopback = () => {
	try {
		return /\slo$/m.test(fs.readFileSync('/proc/net/if_inet6', 'utf8'));
	} catch {
		return false;
	}
};

/** What ensureDebianPackages installs for the firewall (services.mjs). */
export const WAF_PACKAGES = [
	{ command: 'apache2', package: 'apache2', find: () => fs.existsSync(APACHE) },
	{ command: 'mod_security2', package: 'libapache2-mod-security2', find: () => fs.existsSync(path.join(MODULES, 'mod_security2.so')) && fs.existsSync(RECOMMENDED) },
	{ command: 'modsecurity-crs', package: 'modsecurity-crs', find: () => fs.existsSync(path.join(CRS_RULES, 'REQUEST-911-METHOD-ENFORCEMENT.conf')) },
];

/**
 * ModSecurity's recommended configuration as Debian ships it, with the two changes its own comments ask for
 * (SecRuleEngine On instead of DetectionOnly; the audit log where this run keeps its logs) and the unicode
 * mapping file named by its full path (the copy lives elsewhere).
 */
function modsecurityConfig(auditLog) {
	const text = fs.readFileSync(RECOMMENDED, 'utf8');
	const changed = text
		.replace(/^SecRuleEngine DetectionOnly$/m, 'SecRuleEngine On')
		.replace(/^SecAuditLog .*$/m, `SecAuditLog ${auditLog}`)
		.replace(/^SecUnicodeMapFile unicode\.mapping /m, 'SecUnicodeMapFile /etc/modsecurity/unicode.mapping ');
	for (const line of ['SecRuleEngine On', `SecAuditLog ${auditLog}`, 'SecUnicodeMapFile /etc/modsecurity/']) {
		if (!changed.includes(line)) throw new Error(`${RECOMMENDED} has changed: could not set "${line}"`);
	}
	return `# ${RECOMMENDED}, copied by test/wordpress/apache.mjs with SecRuleEngine On and this run's audit log.\n${changed}`;
}

function apacheConfig({ runDir, port, core, fpm, siteUrl }) {
	const file = (name) => path.join(runDir, name);
	const modules = ['mpm_event', 'authz_core', 'proxy', 'proxy_fcgi', 'unique_id', 'security2'];
	return `# Written by test/wordpress/apache.mjs for one run of the throwaway test site.
ServerName localhost
Listen 127.0.0.1:${port}
${hasIpv6Loopback() ? `Listen [::1]:${port}` : '# no IPv6 loopback on this machine'}
PidFile ${file('apache.pid')}
DefaultRuntimeDir ${runDir}
ErrorLog ${file('error.log')}
LogLevel warn
${isRoot() ? 'User www-data\nGroup www-data\n' : ''}${modules.map((m) => `LoadModule ${m}_module ${MODULES}/mod_${m}.so`).join('\n')}
StartServers 1
ServerLimit 2
ThreadsPerChild 16
MaxRequestWorkers 32
Timeout 300
LogFormat "%h [%t] \\"%r\\" %>s %b %D" esign
CustomLog ${file('access.log')} esign

# ModSecurity as Debian's security2.conf loads it, and the Core Rule Set as its owasp-crs.load does.
Include ${file('modsecurity.conf')}
Include /etc/modsecurity/crs/crs-setup.conf
IncludeOptional /etc/modsecurity/crs/REQUEST-900-EXCLUSION-RULES-BEFORE-CRS.conf
Include ${CRS_RULES}/*.conf
IncludeOptional /etc/modsecurity/crs/RESPONSE-999-EXCLUSION-RULES-AFTER-CRS.conf

# Every request that passes goes to WordPress's front controller, as WordPress's .htaccess rewrites do.
DocumentRoot ${core}
<Location "/">
	Require all granted
</Location>
ProxyPass "/" "fcgi://${fpm}/"
ProxyFCGISetEnvIf "true" SCRIPT_FILENAME "${core}/index.php"
ProxyFCGISetEnvIf "true" SCRIPT_NAME "/index.php"
ProxyFCGISetEnvIf "true" DOCUMENT_ROOT "${core}"
ProxyFCGISetEnvIf "true" !PATH_INFO
ProxyFCGISetEnvIf "true" ESIGN_SITE_URL "${siteUrl}"
`;
}

/**
 * Starts Apache with ModSecurity + CRS on 127.0.0.1 (and ::1) at `port`, in front of PHP-FPM at `fpm`
 * (host:port). The site's URL is http://localhost:<port>: CRS scores a Host that is a numeric IP address
 * (rule 920350), which a real site's name is not. Returns { url, service, errorLog, auditLog, logTail() }.
 */
export function startApacheWaf({ runDir, port, core, fpm }) {
	fs.mkdirSync(runDir, { recursive: true });
	const url = `http://localhost:${port}`;
	const errorLog = path.join(runDir, 'error.log');
	const auditLog = path.join(runDir, 'modsec_audit.log');
	fs.writeFileSync(path.join(runDir, 'modsecurity.conf'), modsecurityConfig(auditLog));
	const conf = path.join(runDir, 'apache.conf');
	fs.writeFileSync(conf, apacheConfig({ runDir, port, core, fpm, siteUrl: url }));
	const service = spawnService(APACHE, ['-d', runDir, '-f', conf, '-DFOREGROUND'], { logFile: path.join(runDir, 'apache.out'), cwd: runDir, group: true });
	const read = (file) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');
	const logTail = () => `apache: ${(read(errorLog) || read(path.join(runDir, 'apache.out'))).slice(-1500)}`;
	return { url, service, errorLog, auditLog, logTail };
}
