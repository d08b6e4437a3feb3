// Lets plain Node load the package's .ts sources (the bench runs outside jest, which uses ts-jest).
const fs = require('node:fs');
const ts = require('typescript');

require.extensions['.ts'] = (module, filename) => {
	const source = fs.readFileSync(filename, 'utf8');
	const { outputText } = ts.transpileModule(source, {
		fileName: filename,
		compilerOptions: {
			module: ts.ModuleKind.CommonJS,
			target: ts.ScriptTarget.ES2022,
			esModuleInterop: true,
			useUnknownInCatchVariables: false,
		},
	});
	module._compile(outputText, filename);
};

// `ESign.node` must resolve to ESign.node.ts, not the codex file ESign.node.json beside it:
// Node tries extensions in registration order, so move .json behind .ts.
const jsonLoader = require.extensions['.json'];
delete require.extensions['.json'];
require.extensions['.json'] = jsonLoader;
