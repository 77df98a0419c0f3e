// Renders Jinja templates with @huggingface/jinja (the JavaScript port transformers.js uses), the second oracle of
// the hf Jinja tests. Usage: node render_jinja.mjs ORACLES_DIR < cases.json
// stdin: a JSON array of {"template", "context", "now" (epoch seconds, optional)}; stdout: a JSON array of the rendered
// strings, or {"error": message}.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const dir = process.argv[2];
const { Template } = await import(pathToFileURL(join(dir, "node_modules/@huggingface/jinja/dist/index.js")).href);
const cases = JSON.parse(readFileSync(0, "utf8"));
const RealDate = Date;
const out = cases.map((c) => {
    try {
        // @huggingface/jinja has raise_exception and strftime_now built in; its clock is `new Date()`, so a fixed
        // clock stands in for Date while rendering a case that sets "now".
        const fixed = (c.now ?? 0) * 1000;
        globalThis.Date = class extends RealDate {
            constructor(...args) {
                super(...(args.length ? args : [fixed]));
            }
        };
        return new Template(c.template).render(c.context ?? {});
    } catch (e) {
        return { error: String(e && e.message ? e.message : e) };
    } finally {
        globalThis.Date = RealDate;
    }
});
process.stdout.write(JSON.stringify(out));
