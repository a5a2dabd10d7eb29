// Builds the page and serves this folder on http://127.0.0.1:8080 (loopback only).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
execFileSync("pnpm", ["run", "build"], { cwd: here, stdio: "inherit" });
const types = { ".html": "text/html", ".js": "text/javascript" };
export function serve(port = 8080) {
  const server = createServer((request, response) => {
    const path = normalize(request.url === "/" ? "/index.html" : request.url.split("?")[0]);
    try {
      const body = readFileSync(join(here, path));
      response.writeHead(200, {
        "content-type": types[extname(path)] ?? "application/octet-stream",
      });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await serve(Number(process.env.PORT ?? 8080));
  console.log("open http://127.0.0.1:8080/");
}
