// Copies what tsc does not emit: node/credential icons and codex files, into dist beside the compiled code.
const { src, dest } = require('gulp');

function copyAssets() {
	return src(['nodes/**/*.{png,svg,json}', 'credentials/**/*.{png,svg}', 'icons/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

exports.build = copyAssets;
exports.default = copyAssets;
