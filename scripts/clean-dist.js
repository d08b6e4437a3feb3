// `npm run build` starts from an empty dist so removed files never linger in the package.
const fs = require('node:fs');
const path = require('node:path');
fs.rmSync(path.join(__dirname, '..', 'dist'), { recursive: true, force: true });
